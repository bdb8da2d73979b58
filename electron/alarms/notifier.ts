/**
 * Notifications of new alarm changes (issue 12, C-31): after each batch a connection stored, the
 * status changes of a severity the operator wants to hear about (settings `alarmNotify`, critical
 * by default) are announced, at most once per connection every few seconds: what came meanwhile
 * is summed into the next one, which names the newest change. Changes the console stored late
 * (a backfill of what happened while it was closed) are history, not news: older than `maxAgeMs`
 * on the node's clock, they do not ring. Where the announcement goes (the system's notifications
 * on the desktop, the window in browser mode) is the caller's.
 */
import type Database from 'better-sqlite3';
import { ACTIVE_SEVERITIES, type ActiveSeverity, type AlarmNotification } from '../../shared/model/alarms';
import { boundLine, LIMITS } from '../../shared/model/limits';

export interface AlarmNotifierOptions {
  db: Database.Database;
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

interface Newest {
  aid: number;
  severity: ActiveSeverity;
  text: string;
  device_name: string;
  org: string;
  object: string;
}

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
  private readonly stmt;

  constructor(private readonly o: AlarmNotifierOptions) {
    this.stmt = {
      head: o.db.prepare('SELECT COALESCE(MAX(seq), 0) AS s FROM changes'),
      counts: o.db.prepare(
        `SELECT c.severity, COUNT(*) AS n FROM changes c JOIN alarms a ON a.aid = c.aid
         WHERE c.seq > ? AND c.seq <= ? AND a.source = ? AND c.event_ms >= ? GROUP BY c.severity`,
      ),
      newest: o.db.prepare(
        `SELECT a.aid, c.severity, c.text, a.device_name, a.org, a.object FROM changes c JOIN alarms a ON a.aid = c.aid
         WHERE c.seq > ? AND c.seq <= ? AND a.source = ? AND c.event_ms >= ? AND c.severity = ? ORDER BY c.seq DESC LIMIT 1`,
      ),
    };
  }

  private get now(): number {
    return (this.o.now ?? Date.now)();
  }

  private head(): number {
    return (this.stmt.head.get() as { s: number }).s;
  }

  /** A connection's source started: changes stored from now on may notify (what is stored already does not). */
  begin(profileId: string): void {
    this.cursors.set(profileId, this.head());
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
  check(profileId: string): void {
    const from = this.cursors.get(profileId);
    if (from === undefined) return;
    const to = this.head();
    if (to <= from) return;
    this.cursors.set(profileId, to);
    const wanted = new Set(this.o.severities());
    if (wanted.size === 0) return;
    const since = this.now - (this.o.maxAgeMs ?? NOTIFY_MAX_AGE_MS);
    const counts = (this.stmt.counts.all(from, to, profileId, since) as Array<{ severity: string; n: number }>).filter((r) => wanted.has(r.severity as ActiveSeverity));
    if (counts.length === 0) return;
    const worst = counts.map((r) => r.severity as ActiveSeverity).sort((a, b) => rank(a) - rank(b))[0]!;
    const newest = this.stmt.newest.get(from, to, profileId, since, worst) as Newest;
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
