/**
 * The dashboard's filters in the spec's order: Customer ID first, then Platform (which brings that
 * platform's attributes into the table), then band, vendor, connector and the search box. The
 * platform choices count the hosts of the chosen customer.
 */
import { Search } from 'lucide-react';
import { Vendor } from '../../../shared/model/edr';
import { BANDS, PLATFORMS, type ZtaConnector } from '../../../shared/model/zta';
import type { ZtaSearch } from '../../app/search';
import { formatCount } from '../../components/format';
import { vendorShort } from '../../components/zta-labels';
import type { FilterFacets } from './facets';

export type ZtaFilterValues = Pick<ZtaSearch, 'customer' | 'platform' | 'band' | 'vendor' | 'connector' | 'q'>;

export interface ZtaFiltersProps {
  /** The choices and their counts (facets.ts). */
  facets: FilterFacets;
  connectors: readonly ZtaConnector[];
  values: ZtaFilterValues;
  onChange(patch: Partial<ZtaFilterValues>): void;
}

export function ZtaFilters({ facets, connectors, values, onChange }: ZtaFiltersProps) {
  const chosen = values.customer ? facets.byCustomer.get(values.customer) : undefined;
  const perPlatform = chosen ?? facets.platforms;
  return (
    <div className="zta-filters" role="search" aria-label="Filter hosts">
      <select aria-label="Customer ID" value={chosen ? values.customer : ''} onChange={(e) => onChange({ customer: e.target.value })} data-testid="zta-filter-customer">
        <option value="">All customers</option>
        {facets.customers.map((c) => (
          <option key={c.id} value={c.id}>
            {c.label} ({formatCount(c.hosts)})
          </option>
        ))}
      </select>
      <select aria-label="Platform" value={values.platform} onChange={(e) => onChange({ platform: e.target.value as ZtaFilterValues['platform'] })} data-testid="zta-filter-platform">
        <option value="">All platforms</option>
        {PLATFORMS.map((p, k) => (
          <option key={p} value={p}>
            {p} ({formatCount(perPlatform[k]!)})
          </option>
        ))}
      </select>
      <select aria-label="Band" value={values.band} onChange={(e) => onChange({ band: e.target.value as ZtaFilterValues['band'] })} data-testid="zta-filter-band">
        <option value="">Any band</option>
        {BANDS.map((b) => (
          <option key={b} value={b}>
            {b}
          </option>
        ))}
      </select>
      <select aria-label="Vendor" value={values.vendor} onChange={(e) => onChange({ vendor: e.target.value as ZtaFilterValues['vendor'] })} data-testid="zta-filter-vendor">
        <option value="">Any vendor</option>
        {Vendor.options.map((v) => (
          <option key={v} value={v}>
            {vendorShort[v]}
          </option>
        ))}
      </select>
      <select
        aria-label="Connector"
        value={connectors.some((c) => c.connectorId === values.connector) ? values.connector : ''}
        onChange={(e) => onChange({ connector: e.target.value })}
        data-testid="zta-filter-connector"
      >
        <option value="">All connectors</option>
        {connectors.map((c) => (
          <option key={c.connectorId} value={c.connectorId}>
            {c.name}
          </option>
        ))}
      </select>
      <div className="search-box">
        <Search size={14} aria-hidden="true" />
        <input
          type="search"
          aria-label="Search hosts"
          placeholder="Search hostname or host ID"
          value={values.q}
          onChange={(e) => onChange({ q: e.target.value })}
          data-testid="zta-search"
          spellCheck={false}
          autoComplete="off"
        />
      </div>
    </div>
  );
}
