/**
 * Devices of the active connection, from main's stored copy (shown offline too): search, filters,
 * sortable virtualized table, details with deployment, the onboarding wizard and CSV bulk
 * onboarding. The table reads windows of the stored devices, filtered, searched and sorted in the
 * store (issue 25.3, C-99); the filters' choices and the count come from the store's facets; the
 * previous rows stay, marked stale, while a new answer loads, so typing never waits for the table.
 * Filters, sort and the opened device are in the address (app/search.ts). The search and the
 * filters act on a draft at once and are written to the address once input pauses
 * (useAddressDraft): the router is never on the keystroke path.
 */
import { FileSpreadsheet, Plus, Router, X } from 'lucide-react';
import { useMemo, useState, type ComponentType } from 'react';
import type { DeviceFacets, DeviceWindowFilter } from '../../../shared/model/device-window';
import type { DeviceView } from '../../../shared/model/inventory';
import type { ProfileView } from '../../../shared/model/profile';
import { useDeviceFacets, useDeviceTop, type DeviceWindowAsk } from '../../api/inventory';
import { useSettledRange } from '../../components/useSettledRange';
import { Loading } from '../../components/QueryState';
import { formatCount } from '../../components/format';
import { DEVICE_FILTERS, useRouteRefinements, type DevicesSearch } from '../../app/search';
import { InventoryFreshness } from '../../components/Freshness';
import { NoConnection } from '../../components/NoConnection';
import { storedListState, UnreadableNote } from '../../components/StoredListState';
import { DeviceStateAge } from './DeviceStateAge';
import { useInventoryProfile } from '../../app/useInventoryProfile';
import { DeviceDetailsDialog } from './DeviceDetailsDialog';
import { DeviceFilters } from './DeviceFilters';
import { DevicesTable } from './DevicesTable';
import { useDeviceWindow } from './useDeviceWindow';

/** The wizard and the bulk dialog; an opened device is in the address. */
type PageDialog = { kind: 'wizard' } | { kind: 'bulk' } | undefined;
const NO_FACETS: Pick<DeviceFacets, 'orgs' | 'groups' | 'orgGroups'> = { orgs: [], groups: [], orgGroups: [] };
/** An organization or group the list does not have (an old bookmark, another connection's) is no filter. */
const known = (values: readonly string[], v: string) => (values.includes(v) ? v : '');
const NO_FILTERS = Object.fromEntries(DEVICE_FILTERS.map((k) => [k, ''])) as Pick<DevicesSearch, (typeof DEVICE_FILTERS)[number]>;

/** A dialog of another feature opened for a connection (the onboarding wizard, the CSV onboarding). */
export type ProfileDialog = ComponentType<{ profile: ProfileView; onClose(): void }>;

/** The onboarding dialogs belong to the onboarding feature; app/router.tsx hands them in (features do not import each other). */
export function DevicesPage({ onboardingWizard: OnboardingWizard, bulkOnboarding: BulkOnboardingDialog }: { onboardingWizard: ProfileDialog; bulkOnboarding: ProfileDialog }) {
  const { profile, signedIn, loading } = useInventoryProfile();
  const devices = useDeviceFacets(profile?.id);
  const [dialog, setDialog] = useState<PageDialog>();
  // Refining the page replaces its history entry (once input pauses); opening a device adds one (back closes it).
  const { view, refine, opened: openedDevice, open: openDevice, close: closeDevice } = useRouteRefinements('/devices');
  const facets = devices.data ?? NO_FACETS;
  const { q: query, status, reach, sync } = view;
  const org = known(facets.orgs, view.org);
  const group = known(facets.groups, view.group);
  const ask = useMemo<DeviceWindowAsk>(() => {
    const filter: DeviceWindowFilter = {};
    const q = query.trim();
    if (q) filter.q = q;
    if (org) filter.org = org;
    if (group) filter.group = group;
    if (status) filter.status = status;
    if (reach) filter.reach = reach;
    if (sync) filter.sync = sync;
    return { filter, sort: { key: view.sort, desc: view.order === 'desc' } };
  }, [query, org, group, status, reach, sync, view.sort, view.order]);
  // The pages of the rows in view are read once the scrolling pauses.
  const { range, onRange } = useSettledRange();
  // Read once the facets say there are devices (a list never fetched reads no window).
  const w = useDeviceWindow(devices.data?.total ? profile?.id : undefined, ask, range);
  const total = devices.data?.total ?? 0;
  const filtered = Object.keys(ask.filter).length > 0;
  // The opened device: the row it was opened from at once, then as the store has it (kept fresh by its events).
  const [clicked, setClicked] = useState<DeviceView>();
  const lookup = useDeviceTop(profile && openedDevice ? { profileId: profile.id, filter: { name: openedDevice }, limit: 1 } : undefined, true);
  const looked = lookup.data?.rows[0];

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
  // The count and the first rows show together, once the store's first window answered.
  if (body === undefined && w.total === undefined) body = w.error ? <p className="empty">The stored devices could not be read: {w.error instanceof Error ? w.error.message : String(w.error)}</p> : <Loading>Loading the stored devices…</Loading>;
  if (body === undefined) {
    body = (
      <>
        <div className="devices-filterbar">
          <DeviceFilters facets={facets} values={{ query, org, group, status, reach, sync }} onQuery={(q) => refine({ q })} onFilter={refine} />
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
            <DeviceStateAge at={devices.data?.stateAt ?? null} listFetchedAt={devices.data?.fetchedAt ?? null} />
            {/* data-answer: what the rows shown answer (the bench waits for a key's own answer, also when it looks the same). */}
            <span className="devices-count" data-testid="devices-count" data-answer={w.answer} aria-live="polite">
              {!filtered && !w.stale ? `${formatCount(w.total ?? total)} devices` : `${formatCount(w.total ?? total)} of ${formatCount(total)}`}
            </span>
          </span>
        </div>
        <DevicesTable
          count={w.total ?? 0}
          rowAt={w.rowAt}
          answer={w.answer}
          onRange={onRange}
          sort={ask.sort!}
          onSort={(s) => refine({ sort: s.key, order: s.desc ? 'desc' : 'asc' })}
          onOpen={(d) => {
            setClicked(d);
            openDevice(d.deviceName);
          }}
          stale={w.stale}
        />
      </>
    );
  }

  // A device the store does not have (deleted, or another connection's) opens nothing.
  const selected = !openedDevice ? undefined : lookup.isFetched && !lookup.isPlaceholderData ? looked : clicked?.deviceName === openedDevice ? clicked : undefined;
  return (
    <div className="page page-wide devices-page">
      <div className="toolbar">
        <h2>
          Devices {devices.data?.fetchedAt ? <span className="count">{formatCount(total)}</span> : null}
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
