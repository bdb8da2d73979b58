import { Search } from 'lucide-react';
import { useMemo } from 'react';
import type { DeploymentStatus } from '../../../shared/model/inventory';
import type { DevicesSearch } from '../../app/search';
import { REACHABILITIES, STATUSES, SYNCS, type ConfigSync, type DeviceIndex, type Reachability } from './device-index';

// "" is an unknown value (e.g. a device listed without its organization): not a filter choice.
const optionsOf = (values: readonly string[], label: (v: string) => string = (v) => v) =>
  values
    .filter((v) => v !== '')
    .map((v) => (
      <option key={v} value={v}>
        {label(v)}
      </option>
    ));
const words = (v: string) => v.replace(/-/g, ' ');

export interface DeviceFilterValues {
  /** The search box as typed (its draft: see useAddressDraft). */
  query: string;
  org: string;
  group: string;
  status: DeploymentStatus | '';
  reach: Reachability | '';
  sync: ConfigSync | '';
}

/** Search box (name, site ID, serial) and the organization, group, status, reachability and sync filters. */
export function DeviceFilters({ index, values, onQuery, onFilter }: { index: DeviceIndex; values: DeviceFilterValues; onQuery(q: string): void; onFilter(patch: Partial<Omit<DevicesSearch, 'device'>>): void }) {
  // Hundreds of organizations and groups: built once per devices list, not on every keystroke.
  const orgOptions = useMemo(() => optionsOf(index.orgs), [index.orgs]);
  // With an organization chosen, only its groups (and the group already chosen, so the choice stays visible).
  const { org: deviceOrg, group: deviceGroup } = values;
  const groups = useMemo(() => {
    const org = deviceOrg ? index.orgs.indexOf(deviceOrg) : -1;
    if (org < 0) return index.groups;
    const used = new Uint8Array(index.groups.length);
    for (let i = 0; i < index.orgOf.length; i++) if (index.orgOf[i] === org) used[index.groupOf[i]!] = 1;
    return index.groups.filter((g, k) => used[k] === 1 || g === deviceGroup);
  }, [index, deviceOrg, deviceGroup]);
  const groupOptions = useMemo(() => optionsOf(groups), [groups]);
  return (
    <div className="device-filters" role="search" aria-label="Filter devices">
      <div className="search-box">
        <Search size={14} aria-hidden="true" />
        <input
          type="search"
          aria-label="Search devices"
          placeholder="Search name, site ID or serial"
          value={values.query}
          onChange={(e) => onQuery(e.target.value)}
          data-testid="devices-search"
          spellCheck={false}
          autoComplete="off"
        />
      </div>
      <select aria-label="Organization" value={values.org} onChange={(e) => onFilter({ org: e.target.value })} data-testid="devices-filter-org">
        <option value="">All organizations</option>
        {orgOptions}
      </select>
      <select aria-label="Device group" value={values.group} onChange={(e) => onFilter({ group: e.target.value })} data-testid="devices-filter-group">
        <option value="">All device groups</option>
        {groupOptions}
      </select>
      <select aria-label="Status" value={values.status} onChange={(e) => onFilter({ status: e.target.value as DeploymentStatus | '' })} data-testid="devices-filter-status">
        <option value="">Any status</option>
        {optionsOf(STATUSES)}
      </select>
      <select aria-label="Reachability" value={values.reach} onChange={(e) => onFilter({ reach: e.target.value as Reachability | '' })} data-testid="devices-filter-reach">
        <option value="">Any reachability</option>
        {optionsOf(REACHABILITIES, words)}
      </select>
      <select aria-label="Config sync" value={values.sync} onChange={(e) => onFilter({ sync: e.target.value as ConfigSync | '' })} data-testid="devices-filter-sync">
        <option value="">Any config sync</option>
        {optionsOf(SYNCS, words)}
      </select>
    </div>
  );
}
