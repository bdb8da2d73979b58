/**
 * What each page keeps in the address (`#/devices?org=Acme&status=failed`): typed and checked
 * here with zod. The address is typed by people and kept in bookmarks, so nothing in it can
 * break a page: every field falls back (`.catch`) to its default when it is missing, misspelt or
 * names a value this build does not know. Values are plain strings in the address (router.tsx);
 * a default is left out of it. `useRouteRefinements` is the page-setup of the pages whose address
 * refines them and opens one item (devices, ZTA, alarms).
 */
import { useNavigate, useRouter, useSearch, type HistoryState } from '@tanstack/react-router';
import { useCallback } from 'react';
import { z } from 'zod';
import { ALARM_SEVERITIES, type AlarmFilter } from '../../shared/model/alarms';
import { Vendor } from '../../shared/model/edr';
import type { DeploymentStatus } from '../../shared/model/inventory';
import { BANDS, PLATFORMS, type ZtaFilter } from '../../shared/model/zta';
import { REACHABILITIES, STATUSES, SYNCS, type SortKey } from '../../shared/model/device-window';
import { ZTA_SORT_KEYS } from '../features/zta/zta-index';
import { shallowEqual, useAddressDraft } from './useAddressDraft';

const text = z.string().catch('');
/** One of `values`, or '' (no filter). */
const choice = <T extends string>(values: readonly T[]) => z.enum(values as [T, ...T[]]).or(z.literal('')).catch('');

/** On every page: the connection chosen in the header (a profile id; see useActiveProfile.ts). */
export const rootSearch = z.object({ connection: z.string().min(1).optional().catch(undefined) });

export const CONNECTIONS_TABS = ['profiles', 'oauth-clients', 'syslog'] as const;
export type ConnectionsTab = (typeof CONNECTIONS_TABS)[number];
export const connectionsSearch = z.object({ tab: z.enum(CONNECTIONS_TABS).catch('profiles') });
export const connectionsDefaults = { tab: 'profiles' } as const;

export const SORT_KEYS = ['deviceName', 'siteId', 'orgName', 'deviceGroup', 'country', 'serialNumber', 'deploymentStatus', 'reachability', 'configSync'] as const satisfies readonly SortKey[];
// Every column of the table can be sorted from the address: a new SortKey must be listed above.
const everySortKey: Record<Exclude<SortKey, (typeof SORT_KEYS)[number]>, never> = {};
void everySortKey;

export const devicesSearch = z.object({
  /** The search box (name, site ID or serial), as typed. */
  q: text,
  org: text,
  group: text,
  status: choice<DeploymentStatus>(STATUSES),
  reach: choice(REACHABILITIES),
  sync: choice(SYNCS),
  sort: z.enum(SORT_KEYS).catch('deviceName'),
  order: z.enum(['asc', 'desc']).catch('asc'),
  /** The device whose details are open (its name). */
  device: text,
});
export type DevicesSearch = z.infer<typeof devicesSearch>;
export const devicesDefaults: DevicesSearch = { q: '', org: '', group: '', status: '', reach: '', sync: '', sort: 'deviceName', order: 'asc', device: '' };
/** The filters of the devices page (what "Clear filters" clears). */
export const DEVICE_FILTERS = ['q', 'org', 'group', 'status', 'reach', 'sync'] as const satisfies readonly (keyof DevicesSearch)[];

/**
 * The ZTA dashboard: its filters under the names of `ZtaFilter` (the export and the printable
 * report take the same ones), the sort (riskiest first by default) and the opened host (its ID).
 */
export const ztaSearch = z.object({
  customer: text,
  platform: choice(PLATFORMS),
  band: choice(BANDS),
  vendor: choice(Vendor.options),
  connector: text,
  /** The search box (host ID or hostname), as typed. */
  q: text,
  sort: z.enum(ZTA_SORT_KEYS).catch('score'),
  order: z.enum(['asc', 'desc']).catch('desc'),
  host: text,
});
export type ZtaSearch = z.infer<typeof ztaSearch>;
/** What refines the ZTA page (filters, search, sort): everything in its address but the opened host. */
export type ZtaRefinements = RefinementsOf<'/zta'>;
export const ztaDefaults: ZtaSearch = { customer: '', platform: '', band: '', vendor: '', connector: '', q: '', sort: 'score', order: 'desc', host: '' };
/** The filters of the ZTA dashboard (what "Clear filters" clears). */
export const ZTA_FILTERS = ['customer', 'platform', 'band', 'vendor', 'connector', 'q'] as const satisfies readonly (keyof ZtaSearch)[];

/** The address's filters as the contract's `ZtaFilter` (empty = no filter). */
export function ztaFilterOf(search: Pick<ZtaSearch, (typeof ZTA_FILTERS)[number]>): ZtaFilter {
  const f: ZtaFilter = {};
  if (search.customer) f.customer = search.customer.slice(0, 200);
  if (search.platform) f.platform = search.platform;
  if (search.band) f.band = search.band;
  if (search.vendor) f.vendor = search.vendor;
  if (search.connector) f.connector = search.connector.slice(0, 200);
  if (search.q.trim()) f.q = search.q.slice(0, 200);
  return f;
}

/** A comma list of severities, as the address writes it: known ones only, each once, in severity order. */
const severityList = z
  .string()
  .catch('')
  .transform((v) => {
    const named = new Set(v.split(',').map((x) => x.trim().toLowerCase()));
    return ALARM_SEVERITIES.filter((s) => named.has(s)).join(',');
  });

export const ALARM_STATES = ['open', 'cleared', 'all'] as const;
export const ALARM_ACK = ['unacked', 'all'] as const;

/**
 * The alarm stream (issue 12), under the names the Overview page links with: `severity` (a comma
 * list), `org`, `device`, `type`, `q` (words anywhere), `state` (open by default, cleared, all),
 * `ack` (all by default, or unacked) and `alarm`, the alarm whose details are open (its id).
 */
export const alarmsSearch = z.object({
  severity: severityList,
  org: text,
  device: text,
  type: text,
  q: text,
  state: z.enum(ALARM_STATES).catch('open'),
  ack: z.enum(ALARM_ACK).catch('all'),
  alarm: z
    .string()
    .regex(/^[1-9]\d{0,14}$/)
    .or(z.literal(''))
    .catch(''),
});
export type AlarmsSearch = z.infer<typeof alarmsSearch>;
/** What refines the alarm stream: everything in its address but the opened alarm. */
export type AlarmRefinements = RefinementsOf<'/alarms'>;
export const alarmsDefaults: AlarmsSearch = { severity: '', org: '', device: '', type: '', q: '', state: 'open', ack: 'all', alarm: '' };
/** The filters of the alarm stream (what "Clear filters" clears). */
export const ALARM_FILTERS = ['severity', 'org', 'device', 'type', 'q', 'state', 'ack'] as const satisfies readonly (keyof AlarmsSearch)[];

/** The address's filters as the contract's `AlarmFilter`. */
export function alarmFilterOf(search: Pick<AlarmsSearch, (typeof ALARM_FILTERS)[number]>): AlarmFilter {
  const f: AlarmFilter = { cleared: search.state === 'open' ? 'active' : search.state };
  if (search.severity) f.severity = search.severity.split(',') as AlarmFilter['severity'];
  if (search.org) f.org = search.org.slice(0, 255);
  if (search.device) f.device = search.device.slice(0, 255);
  if (search.type) f.type = search.type.slice(0, 255);
  if (search.q.trim()) f.text = search.q.trim().slice(0, 255);
  if (search.ack === 'unacked') f.unacked = true;
  return f;
}

export const organizationsSearch = z.object({ view: z.enum(['tree', 'list']).catch('tree'), q: text });
export type OrganizationsSearch = z.infer<typeof organizationsSearch>;
export const organizationsDefaults: OrganizationsSearch = { view: 'tree', q: '' };

/**
 * The address's search string as plain strings (`?q=1999` is the text "1999", never a number):
 * the first value of a repeated key wins. Empty values are left out when writing.
 */
export function parseSearch(search: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new URLSearchParams(search.startsWith('?') ? search.slice(1) : search)) if (!(k in out)) out[k] = v;
  return out;
}

export function stringifySearch(search: Record<string, unknown>): string {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(search)) if ((typeof v === 'string' && v !== '') || typeof v === 'number' || typeof v === 'boolean') p.set(k, String(v));
  const s = p.toString();
  return s ? `?${s}` : '';
}

declare module '@tanstack/react-router' {
  interface HistoryState {
    /** This entry was added by opening an item from its own page (the entry before it is that page without it). */
    openedHere?: boolean;
  }
}

/** The pages whose address holds refinements (search, filters, sort) and one opened item, and that item's key. */
const OPENED = { '/devices': 'device', '/zta': 'host', '/alarms': 'alarm' } as const;
interface PageSearch {
  '/devices': DevicesSearch;
  '/zta': ZtaSearch;
  '/alarms': AlarmsSearch;
}
export type RefinedPage = keyof PageSearch;
/** What refines a page: everything in its address but the opened item (and the window's connection, not the page's to write). */
export type RefinementsOf<P extends RefinedPage> = Omit<PageSearch[P], (typeof OPENED)[P]>;

export interface RouteRefinements<R> {
  /** The refinements as the page shows them: a draft that acts at once and reaches the address once input pauses. */
  view: R;
  /** The refinements as the address has them now. */
  inAddress: R;
  refine(patch: Partial<R>): void;
  /** The opened item ('' when none). */
  opened: string;
  /** Opens an item: writes a waiting draft first, then adds a history entry (Back closes it). */
  open(item: string): void;
  /**
   * Closes the opened item. Opened from the page, closing goes back, so the history holds no
   * entry twice and Forward opens it again; opened from an address (a reload, a bookmark, the
   * command palette), closing removes it in place.
   */
  close(): void;
}

type SearchUpdate = (prev: Record<string, unknown>) => Record<string, unknown>;
type PageNavigate = (options: { to?: '.'; search: SearchUpdate; replace?: boolean; state?: (s: HistoryState) => HistoryState }) => Promise<void>;

/**
 * The page-setup of a page with refinements in its address (the devices, ZTA and alarms pages):
 * refining replaces the page's history entry once input pauses (useAddressDraft); opening an item
 * adds one.
 */
export function useRouteRefinements<P extends RefinedPage>(page: P): RouteRefinements<RefinementsOf<P>> {
  const key = OPENED[page];
  const search = useSearch({ from: page }) as Record<string, unknown>;
  const navigate = useNavigate({ from: page }) as unknown as PageNavigate;
  const { [key]: opened, connection: _connection, ...inAddress } = search;
  const { draft, setDraft, flush } = useAddressDraft(inAddress, (v) => void navigate({ search: (prev) => ({ ...prev, ...v }), replace: true }), shallowEqual);
  const refine = useCallback((patch: Partial<Record<string, unknown>>) => setDraft((d) => ({ ...d, ...patch })), [setDraft]);
  const open = useCallback(
    (item: string) => {
      flush();
      void navigate({ search: (prev) => ({ ...prev, [key]: item }), state: (s) => ({ ...s, openedHere: true }) });
    },
    [flush, navigate, key],
  );
  const router = useRouter();
  const close = useCallback(() => {
    if (router.state.location.state.openedHere && router.history.canGoBack()) router.history.back();
    else void navigate({ to: '.', search: (prev) => ({ ...prev, [key]: undefined }), replace: true });
  }, [router, navigate, key]);
  return { view: draft, inAddress, refine, opened: typeof opened === 'string' ? opened : '', open, close } as unknown as RouteRefinements<RefinementsOf<P>>;
}
