import { Search } from 'lucide-react';
import { memo, useMemo, type ReactNode } from 'react';
import type { DeploymentStatus } from '../../../shared/model/inventory';
import type { DevicesSearch } from '../../app/search';
import { REACHABILITIES, STATUSES, SYNCS, type ConfigSync, type DeviceFacets, type Reachability } from '../../../shared/model/device-window';

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
const statusOptions = optionsOf(STATUSES);
const reachOptions = optionsOf(REACHABILITIES, words);
const syncOptions = optionsOf(SYNCS, words);

/**
 * One filter's select. Memoized with options built once: a keystroke in the search box does not
 * visit the hundreds of organizations and groups (onChange must be stable).
 */
const FilterSelect = memo(function FilterSelect({ label, all, value, options, onChange, testId }: { label: string; all: string; value: string; options: ReactNode; onChange(v: string): void; testId: string }) {
  return (
    <select aria-label={label} value={value} onChange={(e) => onChange(e.target.value)} data-testid={testId}>
      <option value="">{all}</option>
      {options}
    </select>
  );
});

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
export function DeviceFilters({ facets, values, onQuery, onFilter }: { facets: Pick<DeviceFacets, 'orgs' | 'groups' | 'orgGroups'>; values: DeviceFilterValues; onQuery(q: string): void; onFilter(patch: Partial<Omit<DevicesSearch, 'device'>>): void }) {
  // Stable as long as onFilter is (the page's refine): the memoized selects skip a keystroke.
  const on = useMemo(
    () => ({
      org: (v: string) => onFilter({ org: v }),
      group: (v: string) => onFilter({ group: v }),
      status: (v: string) => onFilter({ status: v as DeploymentStatus | '' }),
      reach: (v: string) => onFilter({ reach: v as Reachability | '' }),
      sync: (v: string) => onFilter({ sync: v as ConfigSync | '' }),
    }),
    [onFilter],
  );
  // Hundreds of organizations and groups: built once per devices list, not on every keystroke.
  const orgOptions = useMemo(() => optionsOf(facets.orgs), [facets.orgs]);
  // With an organization chosen, only its groups (and the group already chosen, so the choice stays visible).
  const { org: deviceOrg, group: deviceGroup } = values;
  const groups = useMemo(() => {
    const org = deviceOrg ? facets.orgs.indexOf(deviceOrg) : -1;
    if (org < 0) return facets.groups;
    const used = new Uint8Array(facets.groups.length);
    for (const [o, g] of facets.orgGroups) if (o === org) used[g] = 1;
    return facets.groups.filter((g, k) => used[k] === 1 || g === deviceGroup);
  }, [facets, deviceOrg, deviceGroup]);
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
      <FilterSelect label="Organization" all="All organizations" value={values.org} options={orgOptions} onChange={on.org} testId="devices-filter-org" />
      <FilterSelect label="Device group" all="All device groups" value={values.group} options={groupOptions} onChange={on.group} testId="devices-filter-group" />
      <FilterSelect label="Status" all="Any status" value={values.status} options={statusOptions} onChange={on.status} testId="devices-filter-status" />
      <FilterSelect label="Reachability" all="Any reachability" value={values.reach} options={reachOptions} onChange={on.reach} testId="devices-filter-reach" />
      <FilterSelect label="Config sync" all="Any config sync" value={values.sync} options={syncOptions} onChange={on.sync} testId="devices-filter-sync" />
    </div>
  );
}
