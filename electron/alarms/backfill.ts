/**
 * The REST backfill (MN-AL9): every alarm whose last change is after the source's cursor (less a
 * margin), oldest change first, page by page, each page stored in one transaction. Used at start,
 * after every reconnect and on a gap in the broker stream, and as the poll when no broker is
 * configured.
 *
 * Paging walks the list by time, not by offset alone: the node's list moves while it is read (an
 * alarm that changes goes to the end), so each next page asks for alarms changed after the last
 * time seen and reads the alarms of that very millisecond again. Alarms only ever move later, so
 * nothing is skipped; what is read twice is dropped by the store. Only when a whole page shares one
 * millisecond does the offset step over it. The walk ends when the node says the list is done (an
 * empty page, or `totalCount` reached), never at a page shorter than `limit`: a node may cap its
 * pages below it (MN-47). Records and changes outside the plausible time window (time-window.ts)
 * are left out and counted as unreadable; they never move the walk or the cursor.
 */
import type { AlarmStore } from './store/alarm-store';
import { ALARM_PAGE_LIMIT, type NodeAlarmApi } from './node-api';
import { screenRecord, type TimeWindow } from './time-window';
import type { AlarmItem } from '../../shared/model/alarms';

export interface BackfillOptions {
  /** Changes at or after this time are fetched (epoch ms). */
  fromMs: number;
  pageSize?: number;
  /** At most this many pages (a deadline on the walk; default 10,000 = 5 million alarms). */
  maxPages?: number;
  signal?: AbortSignal;
  now?: () => number;
  /** Times outside it are left out and counted as unreadable (none when absent). */
  window?: TimeWindow;
  /** After each stored page (events to the window). */
  onPage?: (result: { aids: number[]; headSeq: number; newChanges: number }) => void;
}

export interface BackfillResult {
  /** Changes and handlings the store did not have. */
  added: number;
  /** The newest change time seen (the next cursor); undefined when the node had nothing new. */
  newestMs: number | undefined;
  pages: number;
  /** Records, status changes and handlings the console could not read (their reasons are logged by the caller). */
  unreadable: number;
  reasons: string[];
}

/** Only what happened at or after `fromMs`: a record carries its whole history, most of it stored long ago. */
function since(item: AlarmItem, fromMs: number): AlarmItem {
  return { ...item, changes: item.changes.filter((c) => c.eventMs >= fromMs), handlings: item.handlings.filter((h) => h.atMs >= fromMs) };
}

export async function backfill(api: NodeAlarmApi, store: AlarmStore, source: string, o: BackfillOptions): Promise<BackfillResult> {
  const limit = Math.min(o.pageSize ?? ALARM_PAGE_LIMIT, ALARM_PAGE_LIMIT);
  const now = o.now ?? Date.now;
  let after = o.fromMs - 1;
  let offset = 0;
  let added = 0;
  let newestMs: number | undefined;
  let pages = 0;
  let unreadable = 0;
  const reasons: string[] = [];
  for (;;) {
    if (pages >= (o.maxPages ?? 10_000)) throw new Error(`The alarm backfill stopped after ${pages} pages; it continues with the next one.`);
    const page = await api.page({ lastChangeAfter: after, offset, limit, order: 'asc' }, o.signal);
    pages += 1;
    unreadable += page.unreadable + (page.unreadableParts ?? 0);
    const pageReasons = [...page.reasons, ...(page.partReasons ?? [])];
    let items = page.items;
    if (o.window) {
      const w = o.window;
      items = [];
      for (const raw of page.items) {
        const s = screenRecord(raw, w);
        unreadable += s.unreadable;
        pageReasons.push(...s.reasons);
        if (s.item) items.push(s.item);
      }
    }
    reasons.push(...pageReasons.slice(0, 10 - Math.min(10, reasons.length)));
    if (items.length > 0) {
      const r = await store.ingest(source, items.map((i) => since(i, o.fromMs)), { storedMs: now() });
      added += r.newChanges + r.newHandlings;
      if (r.aids.length > 0) o.onPage?.({ aids: r.aids, headSeq: r.headSeq, newChanges: r.newChanges + r.newHandlings });
      for (const i of items) newestMs = Math.max(newestMs ?? 0, i.head.lastChangeMs);
    }
    // Done when the node says so: an empty page, or its total (of the alarms after `after`) reached.
    if (page.records === 0 || (page.total !== undefined && offset + page.records >= page.total)) break;
    const lastT = items.length > 0 ? items[items.length - 1]!.head.lastChangeMs : undefined;
    if (lastT !== undefined && lastT - 1 > after) {
      after = lastT - 1;
      offset = 0;
    } else offset += page.records;
  }
  return { added, newestMs, pages, unreadable, reasons };
}
