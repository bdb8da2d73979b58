import { Search } from 'lucide-react';
import { useMemo } from 'react';
import type { DeploymentStatus } from '../../../shared/model/inventory';
import { useInventoryUi } from '../../stores/inventory-ui';
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

/** Search box (name, site ID, serial) and the organization, group, status, reachability and sync filters. */
export function DeviceFilters({ index }: { index: DeviceIndex }) {
  const ui = useInventoryUi();
  // Hundreds of organizations and groups: built once per devices list, not on every keystroke.
  const orgOptions = useMemo(() => optionsOf(index.orgs), [index.orgs]);
  // With an organization chosen, only its groups (and the group already chosen, so the choice stays visible).
  const { deviceOrg, deviceGroup } = ui;
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
          value={ui.deviceSearch}
          onChange={(e) => ui.setDeviceSearch(e.target.value)}
          data-testid="devices-search"
          spellCheck={false}
          autoComplete="off"
        />
      </div>
      <select aria-label="Organization" value={ui.deviceOrg} onChange={(e) => ui.setDeviceFilter({ deviceOrg: e.target.value })} data-testid="devices-filter-org">
        <option value="">All organizations</option>
        {orgOptions}
      </select>
      <select aria-label="Device group" value={ui.deviceGroup} onChange={(e) => ui.setDeviceFilter({ deviceGroup: e.target.value })} data-testid="devices-filter-group">
        <option value="">All device groups</option>
        {groupOptions}
      </select>
      <select aria-label="Status" value={ui.deviceStatus} onChange={(e) => ui.setDeviceFilter({ deviceStatus: e.target.value as DeploymentStatus | '' })} data-testid="devices-filter-status">
        <option value="">Any status</option>
        {optionsOf(STATUSES)}
      </select>
      <select aria-label="Reachability" value={ui.deviceReach} onChange={(e) => ui.setDeviceFilter({ deviceReach: e.target.value as Reachability | '' })} data-testid="devices-filter-reach">
        <option value="">Any reachability</option>
        {optionsOf(REACHABILITIES, words)}
      </select>
      <select aria-label="Config sync" value={ui.deviceSync} onChange={(e) => ui.setDeviceFilter({ deviceSync: e.target.value as ConfigSync | '' })} data-testid="devices-filter-sync">
        <option value="">Any config sync</option>
        {optionsOf(SYNCS, words)}
      </select>
    </div>
  );
}
