/**
 * What the command palette finds, one provider per kind of thing: pages, connections, devices,
 * alarms. A provider is a hook over the palette's query that returns at most a screenful of items,
 * so the palette stays instant whatever the size of what it searches (alarms: one query of main's
 * store for a few rows; hosts: one pass over the ZTA snapshot's name columns).
 */
import { useNavigate } from '@tanstack/react-router';
import { Bell, Cable, Router, ShieldCheck, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { useAlarmSearch } from '../../api/alarms';
import { useDeviceFacets, useDeviceTop } from '../../api/inventory';
import { useZtaFacets, useZtaTop } from '../../api/zta';
import { connectorsById, windowRow } from '../../features/zta/useHostWindow';
import { BandChip } from '../../components/zta-labels';
import { useProfiles, useSessions } from '../../api/connections';
import { SessionBadge } from '../../components/SessionBadge';
import { formatCount } from '../../components/format';
import { SeverityChip } from '../../features/alarms/labels';
import { activePort } from '../../features/connections/labels';
import { usePageLink } from '../page-links';
import { sectionMeta } from '../sections';
import { keyLabel, MOD } from '../shortcuts';
import { useActiveProfile, useChooseConnection } from '../useActiveProfile';

export interface PaletteItem {
  /** Unique across providers. */
  id: string;
  label: string;
  detail?: ReactNode;
  icon: LucideIcon;
  run(): void;
}

export interface PaletteResults {
  items: PaletteItem[];
  /** A line under the group: why it is empty, or how many more matched. */
  note?: string;
  /** The store's answer for this query is on its way (an Enter waits for it: CommandPalette). */
  pending?: boolean;
}

export interface PaletteProvider {
  id: string;
  heading: string;
  /** A hook: called on every render of the palette with its (deferred) query, trimmed. */
  useResults(query: string): PaletteResults;
}

const matches = (query: string, ...texts: string[]) => {
  const q = query.toLowerCase();
  return texts.some((t) => t.toLowerCase().includes(q));
};

const pages: PaletteProvider = {
  id: 'pages',
  heading: 'Pages',
  useResults(query) {
    const navigate = useNavigate();
    const pageLink = usePageLink();
    const items = sectionMeta
      .map((m, i) => ({ m, i }))
      .filter(({ m }) => !query || matches(query, m.label, m.id))
      .map(({ m, i }) => ({
        id: `page:${m.id}`,
        label: m.label,
        detail: <kbd>{keyLabel([MOD, String(i + 1)])}</kbd>,
        icon: m.icon,
        run: () => void navigate(pageLink(m.id)),
      }));
    return { items };
  },
};

const connections: PaletteProvider = {
  id: 'connections',
  heading: 'Connections',
  useResults(query) {
    const profiles = useProfiles();
    const sessions = useSessions();
    const choose = useChooseConnection();
    const items = (profiles.data ?? [])
      .filter((p) => !query || matches(query, p.name, p.host))
      .map((p) => ({
        id: `connection:${p.id}`,
        label: p.name,
        detail: (
          <>
            <span className="active-host">
              {p.host}:{activePort(p)}
            </span>
            <SessionBadge status={sessions.data?.find((s) => s.profileId === p.id)} testId={`palette-session-${p.name}`} />
          </>
        ),
        icon: Cable,
        run: () => choose(p.id),
      }));
    return { items };
  },
};

/** Devices shown at most; the rest is "keep typing". */
export const DEVICE_RESULTS = 8;
/** The longest search the store takes (DeviceWindowFilter.q). */
const MAX_QUERY = 200;

const devices: PaletteProvider = {
  id: 'devices',
  heading: 'Devices',
  useResults(query) {
    const profiles = useProfiles();
    const sessions = useSessions();
    const profile = useActiveProfile(profiles.data, sessions.data);
    const facets = useDeviceFacets(profile?.id).data;
    const q = query.trim();
    // The store answers the first matches by name and how many match (C-99): no device list in the window.
    const matches = useDeviceTop(profile && facets?.total && q && q.length <= MAX_QUERY ? { profileId: profile.id, filter: { q }, limit: DEVICE_RESULTS } : undefined, true);
    const navigate = useNavigate();
    const pageLink = usePageLink();
    if (!profile || !facets?.total) return { items: [] };
    if (!query) return { items: [], note: `Type a name, site ID or serial to find one of the ${formatCount(facets.total)} devices of ${profile.name}.` };
    const found = matches.isPlaceholderData ? [] : (matches.data?.rows ?? []);
    const items = found.map((d) => {
      return {
        id: `device:${d.deviceName}`,
        label: d.deviceName,
        detail: <span className="muted">{[d.orgName, d.siteId ? `site ${d.siteId}` : ''].filter(Boolean).join(' · ')}</span>,
        icon: Router,
        run: () => {
          const link = pageLink('devices');
          void navigate({ to: link.to, search: { ...link.search, device: d.deviceName } });
        },
      };
    });
    const more = (matches.data?.total ?? 0) - items.length;
    return { items, note: more > 0 ? `${formatCount(more)} more — keep typing.` : undefined, pending: matches.isFetching };
  },
};

/** Alarms shown at most. */
export const ALARM_RESULTS = 6;

const alarms: PaletteProvider = {
  id: 'alarms',
  heading: 'Alarms',
  useResults(query) {
    const profiles = useProfiles();
    const sessions = useSessions();
    const profile = useActiveProfile(profiles.data, sessions.data);
    const found = useAlarmSearch(profile?.id, query.slice(0, 255), ALARM_RESULTS + 1);
    const navigate = useNavigate();
    const pageLink = usePageLink();
    if (!profile || !query) return { items: [] };
    const rows = found.data?.rows ?? [];
    const items = rows.slice(0, ALARM_RESULTS).map((a) => ({
      id: `alarm:${a.id}`,
      label: `${a.type} on ${a.deviceName}`,
      detail: (
        <>
          <SeverityChip severity={a.severity} />
          <span className="muted">
            {a.object}
            {a.cleared ? ' · cleared' : ''}
          </span>
        </>
      ),
      icon: Bell,
      run: () => {
        const link = pageLink('alarms');
        void navigate({ to: link.to, search: { ...link.search, alarm: String(a.id) } });
      },
    }));
    const more = (found.data?.total ?? 0) - items.length;
    return { items, note: more > 0 ? `${formatCount(more)} more — keep typing, or search on the Alarms page.` : undefined, pending: found.isFetching };
  },
};

/** Hosts shown at most. */
export const HOST_RESULTS = 6;

/** Hosts of every connector (asked of the store once something is typed: its riskiest matches), by hostname or host ID (issue 22.10). */
const hosts: PaletteProvider = {
  id: 'hosts',
  heading: 'Hosts',
  useResults(query) {
    const top = useZtaTop(query.trim() !== '' ? { filter: { q: query.trim() }, limit: HOST_RESULTS } : undefined, true);
    const found = top.data;
    const connectors = useZtaFacets().data?.connectors;
    const navigate = useNavigate();
    const pageLink = usePageLink();
    if (!query.trim() || !found) return { items: [] };
    const byId = connectorsById(connectors ?? []);
    const total = found.total;
    const items = found.rows.map((r, i) => {
      const row = windowRow(r, i, byId.get(r.connectorId));
      return {
        id: `host:${row.connectorId}:${row.hostId}`,
        label: row.hostname,
        detail: (
          <>
            <BandChip band={row.band} />
            <span className="muted">{row.connectorName}</span>
          </>
        ),
        icon: ShieldCheck,
        run: () => {
          const link = pageLink('zta');
          void navigate({ to: link.to, search: { ...link.search, q: row.hostname, host: row.hostId } });
        },
      };
    });
    const more = total - items.length;
    return { items, note: more > 0 ? `${formatCount(more)} more — keep typing, or search on the ZTA page.` : undefined, pending: top.isFetching };
  },
};

export const PROVIDERS: readonly PaletteProvider[] = [pages, connections, devices, hosts, alarms];
