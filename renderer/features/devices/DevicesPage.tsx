/**
 * Devices of the active connection, from main's stored copy (shown offline too): search, filters,
 * sortable virtualized table, details with deployment, the onboarding wizard and CSV bulk
 * onboarding. The search runs deferred (`useDeferredValue`): typing never waits for the table.
 * Filters, sort and the opened device are in the address (app/search.ts). The search and the
 * filters act on a draft at once and are written to the address once input pauses
 * (useAddressDraft): the router is never on the keystroke path.
 */
import { FileSpreadsheet, Plus, Router, X } from 'lucide-react';
import { useDeferredValue, useMemo, useState, type ComponentType } from 'react';
import type { ProfileView } from '../../../shared/model/profile';
import { useInventoryDevices } from '../../api/inventory';
import { Loading } from '../../components/QueryState';
import { formatCount } from '../../components/format';
import { DEVICE_FILTERS, useRouteRefinements, type DevicesSearch } from '../../app/search';
import { InventoryFreshness } from '../../components/Freshness';
import { NoConnection } from '../../components/NoConnection';
import { storedListState, UnreadableNote } from '../../components/StoredListState';
import { DeviceStateAge } from './DeviceStateAge';
import { useInventoryProfile } from '../../app/useInventoryProfile';
import { filterDevices, type DeviceCriteria, type DeviceIndex, type DeviceSort } from './device-index';
import { DeviceDetailsDialog } from './DeviceDetailsDialog';
import { DeviceFilters } from './DeviceFilters';
import { DevicesTable } from './DevicesTable';
import { deviceIndexOf } from './shared-index';

/** The wizard and the bulk dialog; an opened device is in the address. */
type PageDialog = { kind: 'wizard' } | { kind: 'bulk' } | undefined;
const EMPTY: never[] = [];
/** An organization or group the list does not have (an old bookmark, another connection's) is no filter. */
const knownFacets = (index: DeviceIndex, c: DeviceCriteria): DeviceCriteria => ({ ...c, org: index.orgs.includes(c.org) ? c.org : '', group: index.groups.includes(c.group) ? c.group : '' });
const NO_FILTERS = Object.fromEntries(DEVICE_FILTERS.map((k) => [k, ''])) as Pick<DevicesSearch, (typeof DEVICE_FILTERS)[number]>;

/** A dialog of another feature opened for a connection (the onboarding wizard, the CSV onboarding). */
export type ProfileDialog = ComponentType<{ profile: ProfileView; onClose(): void }>;

/** The onboarding dialogs belong to the onboarding feature; app/router.tsx hands them in (features do not import each other). */
export function DevicesPage({ onboardingWizard: OnboardingWizard, bulkOnboarding: BulkOnboardingDialog }: { onboardingWizard: ProfileDialog; bulkOnboarding: ProfileDialog }) {
  const { profile, signedIn, loading } = useInventoryProfile();
  const devices = useInventoryDevices(profile?.id);
  const [dialog, setDialog] = useState<PageDialog>();
  // Refining the page replaces its history entry (once input pauses); opening a device adds one (back closes it).
  const { view, refine, opened: openedDevice, open: openDevice, close: closeDevice } = useRouteRefinements('/devices');
  const items = devices.data?.items ?? EMPTY;

  const index = useMemo(() => deviceIndexOf(items), [items]);
  const { q: query, status, reach, sync } = view;
  const criteria = useMemo<DeviceCriteria>(
    () => ({ query: query.trim().toLowerCase(), org: view.org, group: view.group, status, reach, sync }),
    [query, view.org, view.group, status, reach, sync],
  );
  const deferred = useDeferredValue(criteria);
  const sort = useMemo<DeviceSort>(() => ({ key: view.sort, desc: view.order === 'desc' }), [view.sort, view.order]);
  const rows = useMemo(() => filterDevices(index, sort.key, sort.desc, knownFacets(index, deferred)), [index, sort, deferred]);
  const { org, group } = knownFacets(index, criteria);

  if (loading) {
    return (
      <Loading>Loading…</Loading>
    );
  }
  if (!profile) return <NoConnection what="Devices" />;

  const close = () => setDialog(undefined);
  const clearFilters = () => refine(NO_FILTERS);
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
          <DeviceFilters index={index} values={{ query, org, group, status, reach, sync }} onQuery={(q) => refine({ q })} onFilter={refine} />
          {/* Always in the layout, hidden while there is nothing to clear: the first key typed must not
              resize the table (a resize re-renders the virtualized rows before the search can). Beside the
              filters it clears; the counts keep the right edge whether it shows or not. */}
          <button
            type="button"
            className="button button-small button-ghost"
            onClick={clearFilters}
            style={query || org || group || status || reach || sync ? undefined : { visibility: 'hidden' }}
          >
            <X size={14} aria-hidden="true" />
            Clear filters
          </button>
          <span className="devices-meta">
            <DeviceStateAge devices={items} listFetchedAt={devices.data?.fetchedAt ?? null} />
            <span className="devices-count" data-testid="devices-count" aria-live="polite">
              {rows.length === items.length && deferred === criteria ? `${formatCount(items.length)} devices` : `${formatCount(rows.length)} of ${formatCount(items.length)}`}
            </span>
          </span>
        </div>
        <DevicesTable
          index={index}
          rows={rows}
          sort={sort}
          onSort={(s) => refine({ sort: s.key, order: s.desc ? 'desc' : 'asc' })}
          onOpen={(d) => openDevice(d.deviceName)}
          stale={deferred !== criteria}
        />
      </>
    );
  }

  // A device the list does not have (deleted, or another connection's) opens nothing.
  const selected = openedDevice ? items.find((d) => d.deviceName === openedDevice) : undefined;
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
      {selected ? <DeviceDetailsDialog profile={profile} device={selected} signedIn={signedIn} onClose={closeDevice} /> : null}
      {dialog?.kind === 'wizard' ? <OnboardingWizard profile={profile} onClose={close} /> : null}
      {dialog?.kind === 'bulk' ? <BulkOnboardingDialog profile={profile} onClose={close} /> : null}
    </div>
  );
}
