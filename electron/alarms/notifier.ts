/**
 * Notifications of new alarm changes (issue 12, C-31): after each batch a connection stored, the
 * status changes of a severity the operator wants to hear about (settings `alarmNotify`, critical
 * by default) are announced, at most once per connection every few seconds: what came meanwhile
 * is summed into the next one, which names the newest change. Changes the console stored late
 * (a backfill of what happened while it was closed) are history, not news: older than `maxAgeMs`
 * on the node's clock, they do not ring. Where the announcement goes (the system's notifications
 * on the desktop, the window in browser mode) is the caller's.
 */
import { ACTIVE_SEVERITIES, type ActiveSeverity, type AlarmNotification } from '../../shared/model/alarms';
import { boundLine, LIMITS } from '../../shared/model/limits';
import type { AlarmStore, NotifiedChange } from './store/alarm-store';

export interface AlarmNotifierOptions {
  /** The store's reads of new changes (the notifier prepares no SQL of its own). */
  store: Pick<AlarmStore, 'changeSeq' | 'changeCounts' | 'newestChange'>;
  /** The severities that notify now (read at every check: the setting may change). */
  severities(): readonly ActiveSeverity[];
  deliver(n: AlarmNotification): void;
  /** The connection's name, for the text. */
  nameOf(profileId: string): string | undefined;
  now?: () => number;
  /** At most one notification per connection this often (default 5 s). */
  everyMs?: number;
  /** Changes older than this on the node's clock when stored do not notify (default 10 min). */
  maxAgeMs?: number;
}

type Newest = NotifiedChange;

interface Pending {
  count: number;
  bySeverity: Map<ActiveSeverity, number>;
  newest: Newest;
}

export const NOTIFY_EVERY_MS = 5_000;
export const NOTIFY_MAX_AGE_MS = 10 * 60_000;

const rank = (s: ActiveSeverity) => ACTIVE_SEVERITIES.indexOf(s);
const capital = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

export class AlarmNotifier {
  /** Per connection: the newest change row already looked at. */
  private readonly cursors = new Map<string, number>();
  private readonly pending = new Map<string, Pending>();
  private readonly lastAt = new Map<string, number>();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** Checks run one after another (each moves a cursor after reading the store). */
  private queue: Promise<void> = Promise.resolve();

  constructor(private readonly o: AlarmNotifierOptions) {}

  private get now(): number {
    return (this.o.now ?? Date.now)();
  }

  /** The newest change's sequence now: what `begin` takes (read before the source starts). */
  head(): Promise<number> {
    return this.o.store.changeSeq();
  }

  /** A connection's source started: changes stored after `head` may notify (what was stored already does not). */
  begin(profileId: string, head: number): void {
    this.cursors.set(profileId, head);
  }

  /** Its source stopped: nothing more, and nothing waiting, is announced. */
  end(profileId: string): void {
    this.cursors.delete(profileId);
    this.pending.delete(profileId);
    clearTimeout(this.timers.get(profileId));
    this.timers.delete(profileId);
  }

  close(): void {
    for (const id of [...this.cursors.keys()]) this.end(id);
  }

  /** The connection stored something: its new changes of a notifying severity are announced (or wait for the next turn). */
  check(profileId: string): Promise<void> {
    const run = this.queue.then(() => this.checkNow(profileId));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async checkNow(profileId: string): Promise<void> {
    const from = this.cursors.get(profileId);
    if (from === undefined) return;
    const to = await this.o.store.changeSeq();
    if (to <= from || this.cursors.get(profileId) !== from) return;
    this.cursors.set(profileId, to);
    const wanted = new Set(this.o.severities());
    if (wanted.size === 0) return;
    const range = { fromSeq: from, toSeq: to, sinceMs: this.now - (this.o.maxAgeMs ?? NOTIFY_MAX_AGE_MS) };
    const counts = (await this.o.store.changeCounts(profileId, range)).filter((r) => wanted.has(r.severity as ActiveSeverity));
    if (counts.length === 0) return;
    const worst = counts.map((r) => r.severity as ActiveSeverity).sort((a, b) => rank(a) - rank(b))[0]!;
    const newest = (await this.o.store.newestChange(profileId, range, worst))!;
    // The source stopped meanwhile: nothing more is announced.
    if (!this.cursors.has(profileId)) return;
    const p = this.pending.get(profileId) ?? { count: 0, bySeverity: new Map(), newest };
    for (const r of counts) {
      const s = r.severity as ActiveSeverity;
      p.count += r.n;
      p.bySeverity.set(s, (p.bySeverity.get(s) ?? 0) + r.n);
    }
    // The newest of the most severe is the one named.
    if (rank(worst) <= rank(p.newest.severity)) p.newest = newest;
    this.pending.set(profileId, p);
    this.schedule(profileId);
  }

  private schedule(profileId: string): void {
    if (this.timers.has(profileId)) return;
    const wait = (this.lastAt.get(profileId) ?? -Infinity) + (this.o.everyMs ?? NOTIFY_EVERY_MS) - this.now;
    if (wait <= 0) return this.flush(profileId);
    const t = setTimeout(() => {
      this.timers.delete(profileId);
      this.flush(profileId);
    }, wait);
    t.unref?.();
    this.timers.set(profileId, t);
  }

  private flush(profileId: string): void {
    const p = this.pending.get(profileId);
    if (!p) return;
    this.pending.delete(profileId);
    this.lastAt.set(profileId, this.now);
    this.o.deliver(notificationText(profileId, p, this.o.nameOf(profileId)));
  }
}

/** The words of a notification, its title and body each one short line (LIMITS.notificationLine, issue 20.5). */
function notificationText(profileId: string, p: Pending, connection: string | undefined): AlarmNotification {
  const n = wordsOf(profileId, p, connection);
  return { ...n, title: boundLine(n.title, LIMITS.notificationLine), body: boundLine(n.body, LIMITS.notificationLine) };
}

/** One change by its device and text; several by count, the newest named. */
function wordsOf(profileId: string, p: Pending, connection: string | undefined): AlarmNotification {
  // The alarm's own words take part of the line, so that the place and the connection still fit.
  const n = {
    ...p.newest,
    text: boundLine(p.newest.text, LIMITS.notificationText),
    device_name: boundLine(p.newest.device_name, LIMITS.notificationName),
    org: boundLine(p.newest.org, LIMITS.notificationName),
    object: boundLine(p.newest.object, LIMITS.notificationName),
  };
  const where = [n.org, n.object].filter(Boolean).join(' · ');
  const named = `${n.device_name}: ${n.text}${where ? ` (${where})` : ''}`;
  const on = connection ? ` — ${connection}` : '';
  if (p.count === 1) return { profileId, severity: n.severity, count: 1, alarmId: n.aid, title: `${capital(n.severity)} alarm on ${n.device_name}`, body: `${n.text}${where ? ` (${where})` : ''}${on}` };
  const parts = [...p.bySeverity].sort(([a], [b]) => rank(a) - rank(b)).map(([s, c]) => `${c} ${s}`);
  return { profileId, severity: n.severity, count: p.count, alarmId: n.aid, title: `${p.count} new alarms (${parts.join(', ')})`, body: `Newest: ${named}${on}` };
}
