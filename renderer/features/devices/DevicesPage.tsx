/**
 * Devices of the active connection, from main's stored copy (shown offline too): search, filters,
 * sortable virtualized table, details with deployment, the onboarding wizard and CSV bulk
 * onboarding. The search runs deferred (`useDeferredValue`): typing never waits for the table.
 */
import { FileSpreadsheet, Plus, Router, X } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { useInventoryDevices } from '../../api/inventory';
import { Spinner } from '../../components/Spinner';
import { formatCount } from '../../components/format';
import { useInventoryUi } from '../../stores/inventory-ui';
import { InventoryFreshness } from '../inventory/Freshness';
import { NoConnection } from '../inventory/NoConnection';
import { storedListState, UnreadableNote } from '../inventory/StoredListState';
import { DeviceStateAge } from './DeviceStateAge';
import { useInventoryProfile } from '../inventory/useInventoryProfile';
import { BulkOnboardingDialog } from '../onboarding/bulk/BulkOnboardingDialog';
import { OnboardingWizard } from '../onboarding/OnboardingWizard';
import { buildDeviceIndex, filterDevices, type DeviceCriteria } from './device-index';
import { DeviceDetailsDialog } from './DeviceDetailsDialog';
import { DeviceFilters } from './DeviceFilters';
import { DevicesTable } from './DevicesTable';

type PageDialog = { kind: 'details'; deviceName: string } | { kind: 'wizard' } | { kind: 'bulk' } | undefined;
const EMPTY: never[] = [];

export function DevicesPage() {
  const { profile, signedIn, loading } = useInventoryProfile();
  const devices = useInventoryDevices(profile?.id);
  const [dialog, setDialog] = useState<PageDialog>();
  const ui = useInventoryUi();
  const items = devices.data?.items ?? EMPTY;

  const index = useMemo(() => buildDeviceIndex(items), [items]);
  const criteria = useMemo<DeviceCriteria>(
    () => ({ query: ui.deviceSearch.trim().toLowerCase(), org: ui.deviceOrg, group: ui.deviceGroup, status: ui.deviceStatus, reach: ui.deviceReach, sync: ui.deviceSync }),
    [ui.deviceSearch, ui.deviceOrg, ui.deviceGroup, ui.deviceStatus, ui.deviceReach, ui.deviceSync],
  );
  const deferred = useDeferredValue(criteria);
  const sort = ui.deviceSort;
  const rows = useMemo(() => filterDevices(index, sort.key, sort.desc, deferred), [index, sort, deferred]);

  if (loading) {
    return (
      <div className="loading">
        <Spinner /> Loading…
      </div>
    );
  }
  if (!profile) return <NoConnection what="Devices" />;

  const close = () => setDialog(undefined);
  let body = storedListState(
    devices,
    'devices',
    <div className="empty" data-testid="devices-empty">
      <Router size={22} aria-hidden="true" />
      <p>{devices.data?.fetchedAt ? `${profile.name} has no devices yet.` : `The devices of ${profile.name} were never fetched.`}</p>
      <p className="muted">{devices.data?.fetchedAt ? 'Onboard one with the wizard, or many from a CSV file.' : signedIn ? 'They are fetched now; then they are kept for offline use.' : `Sign in to ${profile.name} to fetch them; they are then kept for offline use.`}</p>
    </div>,
  );
  if (body === undefined) {
    body = (
      <>
        <div className="devices-filterbar">
          <DeviceFilters index={index} />
          <span className="devices-count" data-testid="devices-count" aria-live="polite">
            {rows.length === items.length && deferred === criteria ? `${formatCount(items.length)} devices` : `${formatCount(rows.length)} of ${formatCount(items.length)}`}
          </span>
          <DeviceStateAge devices={items} listFetchedAt={devices.data?.fetchedAt ?? null} />
          {/* Always in the layout, hidden while there is nothing to clear: the first key typed must not
              resize the table (a resize re-renders the virtualized rows before the search can). */}
          <button
            type="button"
            className="button button-small button-ghost"
            onClick={ui.clearDeviceFilters}
            style={ui.deviceSearch || ui.deviceOrg || ui.deviceGroup || ui.deviceStatus || ui.deviceReach || ui.deviceSync ? undefined : { visibility: 'hidden' }}
          >
            <X size={14} aria-hidden="true" />
            Clear filters
          </button>
        </div>
        <DevicesTable index={index} rows={rows} sort={sort} onSort={ui.setDeviceSort} onOpen={(d) => setDialog({ kind: 'details', deviceName: d.deviceName })} stale={deferred !== criteria} />
      </>
    );
  }

  const selected = dialog?.kind === 'details' ? items.find((d) => d.deviceName === dialog.deviceName) : undefined;
  return (
    <div className="page page-wide devices-page">
      <div className="toolbar">
        <h2>
          Devices {devices.data?.fetchedAt ? <span className="count">{formatCount(items.length)}</span> : null}
        </h2>
        <div className="toolbar-actions">
          <InventoryFreshness profile={profile} fetchedAt={devices.data?.fetchedAt} what="devices" signedIn={signedIn} />
          <button type="button" className="button" onClick={() => setDialog({ kind: 'bulk' })}>
            <FileSpreadsheet size={14} aria-hidden="true" />
            Bulk onboard (CSV)…
          </button>
          <button type="button" className="button button-primary" onClick={() => setDialog({ kind: 'wizard' })}>
            <Plus size={14} aria-hidden="true" />
            Onboard device
          </button>
        </div>
      </div>
      <UnreadableNote count={devices.data?.unreadable} what="device" />
      {body}
      {selected ? <DeviceDetailsDialog profile={profile} device={selected} signedIn={signedIn} onClose={close} /> : null}
      {dialog?.kind === 'wizard' ? <OnboardingWizard profile={profile} onClose={close} /> : null}
      {dialog?.kind === 'bulk' ? <BulkOnboardingDialog profile={profile} onClose={close} /> : null}
    </div>
  );
}
