/**
 * The dashboard's filters in the spec's order: Customer ID first, then Platform (which brings that
 * platform's attributes into the table), then band, vendor, connector and the search box. The
 * platform choices count the hosts of the chosen customer.
 */
import { Search } from 'lucide-react';
import { useMemo } from 'react';
import { Vendor } from '../../../shared/model/edr';
import { BANDS, PLATFORMS, type ZtaSnapshot } from '../../../shared/model/zta';
import type { ZtaSearch } from '../../app/search';
import { formatCount } from '../../components/format';
import { shortId } from '../../components/ids';
import { vendorShort } from '../../components/zta-labels';
import { connectorLabel, customerNames } from './customer-names';

export type ZtaFilterValues = Pick<ZtaSearch, 'customer' | 'platform' | 'band' | 'vendor' | 'connector' | 'q'>;

interface Facets {
  customers: Array<{ id: string; label: string; hosts: number }>;
  /** Hosts per platform, of all customers and of each one. */
  platforms: Int32Array;
  byCustomer: Int32Array[];
}

function facetsOf(s: ZtaSnapshot): Facets {
  const { customer, platform, connector } = s.rows;
  const hosts = new Int32Array(s.customers.length);
  const names = s.customers.map(() => new Set<string>());
  const platforms = new Int32Array(PLATFORMS.length);
  const byCustomer = s.customers.map(() => new Int32Array(PLATFORMS.length));
  const labels = s.connectors.map(connectorLabel);
  for (let i = 0; i < customer.length; i++) {
    const c = customer[i]!;
    hosts[c]! += 1;
    platforms[platform[i]!]! += 1;
    byCustomer[c]![platform[i]!]! += 1;
    names[c]!.add(labels[connector[i]!]!);
  }
  // Named where the console knows the name (customer-names.ts), else by the ID and its connectors.
  const known = customerNames(s);
  const customers = s.customers
    .map((id, k) => ({ id, label: known[k] ? `${known[k]} (${shortId(id)})` : `${shortId(id)} — ${[...names[k]!].join(', ')}`, hosts: hosts[k]! }))
    .sort((a, b) => (a.label < b.label ? -1 : a.label > b.label ? 1 : 0));
  return { customers, platforms, byCustomer };
}

export function ZtaFilters({ snapshot: s, values, onChange }: { snapshot: ZtaSnapshot; values: ZtaFilterValues; onChange(patch: Partial<ZtaFilterValues>): void }) {
  const facets = useMemo(() => facetsOf(s), [s]);
  const customerIndex = values.customer ? s.customers.indexOf(values.customer) : -1;
  const perPlatform = customerIndex >= 0 ? facets.byCustomer[customerIndex]! : facets.platforms;
  return (
    <div className="zta-filters" role="search" aria-label="Filter hosts">
      <select aria-label="Customer ID" value={customerIndex >= 0 ? values.customer : ''} onChange={(e) => onChange({ customer: e.target.value })} data-testid="zta-filter-customer">
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
        value={s.connectors.some((c) => c.connectorId === values.connector) ? values.connector : ''}
        onChange={(e) => onChange({ connector: e.target.value })}
        data-testid="zta-filter-connector"
      >
        <option value="">All connectors</option>
        {s.connectors.map((c) => (
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
