/**
 * What the `alarms.changed` events of a connection said, kept in the query cache (event-sync.ts
 * writes it): the store's newest sequence, and for the alarms named recently the sequence at which
 * each changed. Every alarm read carries the sequence it is as new as (`seq`); a read older than the
 * newest event is fetched again once its own fetch is done (`useFollow`, follow.ts), never cancelled on
 * the way, so a stream of events several times a second can never starve an answer, and the last
 * event of a burst is always followed. Nothing refetches 100,000 rows per event: only the reads
 * in view follow (the list's windows shown, the counters, the opened alarm).
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { EventPayload } from '../../shared/contract';
import { keys } from './keys';

export interface AlarmLive {
  /** The newest store sequence an event named (0 before the first). */
  seq: number;
  /** Alarm id → the sequence of the newest event that named it (the most recent ids only). */
  changed: Map<number, number>;
  /** The newest event that named only some of its alarms (`more`): any alarm may have changed then. */
  moreSeq: number;
}

/** Ids remembered per connection: far more than a screen of rows; the oldest are forgotten first. */
const REMEMBERED = 20_000;
const EMPTY: AlarmLive = { seq: 0, changed: new Map(), moreSeq: 0 };

export function noteAlarmsChanged(qc: QueryClient, e: EventPayload<'alarms.changed'>): void {
  qc.setQueryData<AlarmLive>(keys.alarmLive(e.profileId), (old) => {
    // One map per connection, moved on in place (a copy per event would cost more than the event).
    const changed = old && old !== EMPTY ? old.changed : new Map<number, number>();
    for (const id of e.ids) {
      changed.delete(id);
      changed.set(id, e.headSeq);
    }
    if (changed.size > REMEMBERED) {
      let drop = changed.size - REMEMBERED;
      for (const id of changed.keys()) {
        if (drop-- <= 0) break;
        changed.delete(id);
      }
    }
    return { seq: Math.max(old?.seq ?? 0, e.headSeq), changed, moreSeq: e.more ? e.headSeq : (old?.moreSeq ?? 0) };
  });
}

export function alarmLiveOf(qc: QueryClient, profileId: string): AlarmLive {
  return qc.getQueryData<AlarmLive>(keys.alarmLive(profileId)) ?? EMPTY;
}

/** An alarm changed after a read as new as `seq` (named by an event, or possibly: an event named only some). */
export function changedSince(live: AlarmLive, id: number, seq: number, wasShown: boolean): boolean {
  return (live.changed.get(id) ?? 0) > seq || (!wasShown && live.moreSeq > seq);
}

/** The events' record of a connection, re-rendering on each event. */
export function useAlarmLive(profileId: string | undefined): AlarmLive {
  const q = useQuery({
    queryKey: keys.alarmLive(profileId ?? ''),
    queryFn: () => EMPTY,
    enabled: false,
    initialData: EMPTY,
    staleTime: Infinity,
    structuralSharing: false,
  });
  return q.data;
}

/** The sequence a read starts at: what it answers is at least this new. */
export function useSeqAtStart(): (profileId: string) => number {
  const qc = useQueryClient();
  return (profileId) => alarmLiveOf(qc, profileId).seq;
}
