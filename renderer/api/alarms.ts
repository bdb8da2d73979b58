/**
 * The alarm page's reads and writes (issue 12): windows of a connection's stored alarms for the
 * virtualized stream, the count of what changed while the list is paused, one alarm with its
 * history, the counters, the rate and the source's status; acknowledge and clear. Every read says
 * how new it is (`seq`, alarm-live.ts) and follows `alarms.changed` by itself while it is shown.
 */
import { useMutation, useQueries, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { RequestOf } from '../../shared/contract';
import type { AlarmFilter, AlarmPage, AlarmView } from '../../shared/model/alarms';
import { alarmLiveOf, changedSince, useAlarmLive } from './alarm-live';
import { useFollow } from './follow';
import { useClient } from './ApiProvider';
import type { Client } from './client';
import { keys } from './keys';

/** Rows per window of the list (a screen is ~25; the contract allows 1,000). */
export const ALARM_PAGE = 100;
/**
 * The windows in view follow the stream at most this often: events come every 250 ms, and at
 * thousands of changes a second every row in view is new at each; twice a second is as live as
 * anyone reads, and the window and main each do half the work.
 */
const FOLLOW_GAP_MS = 500;

/** A window of the list as shown: how new it is, and which of its rows changed since it was last shown (highlighted). */
export interface LivePage extends AlarmPage {
  seq: number;
  fresh: ReadonlySet<number>;
}

const NONE: ReadonlySet<number> = new Set();
/** What a row shows that a change moves (a status change or a handling). */
const version = (r: AlarmView) => `${r.lastChangeAt}|${r.severity}|${r.handling?.at ?? ''}|${r.handling?.state ?? ''}`;

/**
 * One window of ALARM_PAGE rows. An answer stops at its byte budget (issue 20.5, `more`): the rest
 * of the window comes in further answers, each bounded too.
 */
export async function readWindow(client: Pick<Client, 'invoke'>, profileId: string, filter: AlarmFilter, offset: number): Promise<AlarmPage> {
  const page = await client.invoke('alarms.list', { profileId, filter, offset, limit: ALARM_PAGE });
  for (let at = page.rows.length; page.more && at < ALARM_PAGE; at = page.rows.length) {
    const rest = await client.invoke('alarms.list', { profileId, filter, offset: offset + at, limit: ALARM_PAGE - at });
    page.rows.push(...rest.rows);
    page.more = rest.more && rest.rows.length > 0;
  }
  return page;
}

async function readPage(client: Client, qc: QueryClient, profileId: string, filter: AlarmFilter, offset: number): Promise<LivePage> {
  const key = keys.alarmPage(profileId, filter, offset);
  const startSeq = alarmLiveOf(qc, profileId).seq;
  const prev = qc.getQueryData<LivePage>(key);
  const page = await readWindow(client, profileId, filter, offset);
  let fresh = NONE;
  if (prev) {
    // Changed since this window was last shown: named by an event after it, and not as it was shown.
    const live = alarmLiveOf(qc, profileId);
    const shown = new Map(prev.rows.map((r) => [r.id, version(r)]));
    const changed = page.rows.filter((r) => changedSince(live, r.id, prev.seq, shown.has(r.id)) && shown.get(r.id) !== version(r));
    if (changed.length > 0) fresh = new Set(changed.map((r) => r.id));
  }
  return { ...page, seq: Math.max(startSeq, page.headSeq), fresh };
}

/**
 * The windows of the list at `offsets`. Live, each window in view is fetched again when an event
 * is newer than it; `paused`, the windows shown hold still and only a window never read is fetched.
 */
export function useAlarmPages(profileId: string, filter: AlarmFilter, offsets: readonly number[], paused: boolean) {
  const client = useClient();
  const qc = useQueryClient();
  const live = useAlarmLive(profileId);
  const results = useQueries({
    queries: offsets.map((offset) => ({
      queryKey: keys.alarmPage(profileId, filter, offset),
      queryFn: () => readPage(client, qc, profileId, filter, offset),
      staleTime: Infinity,
    })),
  });
  useFollow(results, live.seq, { enabled: !paused, minGapMs: FOLLOW_GAP_MS });
  return results;
}

/** How many alarms of the filter changed after `afterSeq` (what a paused list holds back). */
export function useAlarmsChangedAfter(profileId: string, filter: AlarmFilter, afterSeq: number | undefined) {
  const client = useClient();
  const qc = useQueryClient();
  const live = useAlarmLive(profileId);
  const q = useQuery({
    queryKey: keys.alarmCount(profileId, { ...filter, afterSeq }),
    queryFn: async () => {
      const seq = alarmLiveOf(qc, profileId).seq;
      const page = await client.invoke('alarms.list', { profileId, filter: { ...filter, afterSeq: afterSeq ?? 0 }, limit: 1 });
      return { total: page.total, seq: Math.max(seq, page.headSeq) };
    },
    enabled: afterSeq !== undefined,
    staleTime: Infinity,
  });
  useFollow(q, live.seq, { enabled: afterSeq !== undefined, minGapMs: 250 });
  return q;
}

export function useAlarmDetail(profileId: string, id: number | undefined) {
  const client = useClient();
  const qc = useQueryClient();
  const live = useAlarmLive(profileId);
  const q = useQuery({
    queryKey: keys.alarm(profileId, id ?? 0),
    queryFn: async () => {
      const seq = alarmLiveOf(qc, profileId).seq;
      return { ...(await client.invoke('alarms.get', { profileId, id: id ?? 0 })), seq };
    },
    enabled: id !== undefined,
    staleTime: Infinity,
    retry: false,
    // The dialog says itself that the alarm is gone.
    meta: { silent: true },
  });
  // Only an event that names this alarm (or may have) fetches it again.
  const due = q.data !== undefined && id !== undefined && changedSince(live, id, q.data.seq, true) ? live.seq : (q.data?.seq ?? 0);
  useFollow(q, due);
  return q;
}

export function useAlarmSummary(profileId: string | undefined) {
  const client = useClient();
  const qc = useQueryClient();
  const live = useAlarmLive(profileId);
  const q = useQuery({
    queryKey: keys.alarmSummary(profileId ?? ''),
    queryFn: async () => {
      const seq = alarmLiveOf(qc, profileId ?? '').seq;
      return { ...(await client.invoke('alarms.summary', { profileId: profileId ?? '' })), seq };
    },
    enabled: !!profileId,
    staleTime: Infinity,
  });
  useFollow(q, live.seq, { minGapMs: 1_000 });
  return q;
}

/** Changes per minute over the last hour; the chart follows at most every 2 s. */
export const RATE_MINUTES = 60;

export function useAlarmRate(profileId: string) {
  const client = useClient();
  const qc = useQueryClient();
  const live = useAlarmLive(profileId);
  const q = useQuery({
    queryKey: keys.alarmRate(profileId, RATE_MINUTES),
    queryFn: async () => {
      const seq = alarmLiveOf(qc, profileId).seq;
      return { ...(await client.invoke('alarms.rate', { profileId, minutes: RATE_MINUTES })), seq };
    },
    staleTime: Infinity,
    // A new minute starts with or without changes: the chart moves on by itself.
    refetchInterval: 60_000,
  });
  useFollow(q, live.seq, { minGapMs: 2_000 });
  return q;
}

/** How often a joined console reads its team collector's health again (the collector beats every 5 s). */
const FLEET_STATUS_EVERY_MS = 5_000;

/** Which source feeds the connection's alarms and how far behind; `alarms.status` events write it (event-sync.ts). */
export function useAlarmStatus(profileId: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.alarmStatus(profileId ?? ''),
    queryFn: () => client.invoke('alarms.status', { profileId: profileId ?? '' }),
    enabled: !!profileId,
    staleTime: Infinity,
    // A joined console's source is the team's collector: no event says when it changes, its health row does (beats every 5 s, C-91).
    refetchInterval: (q) => (q.state.data?.source === 'fleet' ? FLEET_STATUS_EVERY_MS : false),
  });
}

/** Alarms whose text, object, device, type or problem holds `text` (the command palette; a few). */
export function useAlarmSearch(profileId: string | undefined, text: string, limit: number) {
  const client = useClient();
  return useQuery({
    queryKey: keys.alarmSearch(profileId ?? '', text),
    queryFn: () => client.invoke('alarms.list', { profileId: profileId ?? '', filter: { text, cleared: 'all' }, limit }),
    enabled: !!profileId && text.length > 0,
    staleTime: 5_000,
    placeholderData: (previous) => previous,
    meta: { silent: true },
  });
}

/** Acknowledge (or otherwise handle) with a note, on the node. Refusals show in the dialog. */
export function useAcknowledgeAlarms() {
  const client = useClient();
  return useMutation({ mutationFn: (req: RequestOf<'alarms.acknowledge'>) => client.invoke('alarms.acknowledge', req), meta: { silent: true } });
}

/** Clear with a note, on the node. Refusals show in the dialog. */
export function useClearAlarms() {
  const client = useClient();
  return useMutation({ mutationFn: (req: RequestOf<'alarms.clear'>) => client.invoke('alarms.clear', req), meta: { silent: true } });
}
