/**
 * Issue 24, must show: PostgreSQL stopped for 30 s mid-stream under a fleet of alarm collectors
 * (`northbound alarms follow --database-url`, real child processes) on one node's queue, fed by the
 * node simulator through a real RabbitMQ (a node of this test's own: the shared one may be stopped
 * by another run's teardown). The collectors wait for the database — each says so
 * once, keeps what it was handed unacknowledged, and says so again when it is back — and a
 * collector started while the database is away waits for it instead of exiting. Afterwards every
 * change the node emitted is stored exactly once (compared by message ID) and every collector is
 * still running.
 */
import { describe, expect, it } from 'vitest';
import { usePostgres } from '../../support/postgres';
import { until } from '../../support/until';
import { storedBy, storedIds, useCollectorWorld, type Collector } from './fleet-collector';

const EXCHANGE = 'nb.test.fleet-outage';
const OUTAGE_MS = 30_000;
const pg = usePostgres();
const world = useCollectorWorld(EXCHANGE);
const { collector, live } = world;

const count = (text: string, re: RegExp) => (text.match(new RegExp(re.source, 'g')) ?? []).length;
const WAITS = /alarms follow: the team's database could not be reached/;
const BACK = /alarms follow: the team's database is reachable again/;
/** True while every collector runs; one that exited fails the wait with what it said. */
const running = (cs: Collector[]) => {
  const gone = cs.find((c) => c.child.exitCode !== null);
  if (gone) throw new Error(`a collector exited (${gone.child.exitCode}): ${gone.stderr()}`);
  return true;
};

describe('alarms follow --database-url: PostgreSQL stopped for 30 s', () => {
  it('the collectors wait and say so, one started meanwhile waits too; afterwards every change is stored exactly once', async () => {
    const db = await pg.freshDatabase('outage');
    const sim = world.world.sim;
    const a = collector(db.url);
    const b = collector(db.url);
    await until('the first collector to consume', () => live(a), 60_000);
    await until('the second collector to consume', () => live(b), 60_000);
    sim.alarms.generator.start();
    await until('both collectors to store', () => sim.alarms.lastMessageId() >= 300 && storedBy(a.stderr()) > 0 && storedBy(b.stderr()) > 0, 30_000);

    const cluster = pg.cluster();
    await cluster.pause();
    const pausedAt = Date.now();
    const atPause = sim.alarms.lastMessageId();
    // A collector started while the database is away waits for it (it does not exit).
    const late = collector(db.url);
    await until('every collector to say it waits for the database', () => running([a, b, late]) && [a, b, late].every((c) => WAITS.test(c.stderr())), OUTAGE_MS);
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, pausedAt + OUTAGE_MS - Date.now())));
    // The node went on emitting all along.
    expect(sim.alarms.lastMessageId()).toBeGreaterThan(atPause + 1000);
    await cluster.resume();

    await until('every collector to say the database is back', () => [a, b, late].every((c) => BACK.test(c.stderr())), 60_000);
    await until('the late collector to consume', () => live(late), 60_000);
    await until('the late collector to store', () => storedBy(late.stderr()) > 0, 60_000);
    sim.alarms.generator.stop();
    const emitted = sim.alarms.lastMessageId();
    await sim.alarms.published(60_000);
    const stored = await until(`all ${emitted} changes stored`, async () => {
      const s = await storedIds(db.pool);
      return s.rows === emitted && s.max === emitted && s;
    }, 90_000);
    expect(stored).toMatchObject({ rows: emitted, min: 1, max: emitted, twice: [] });
    expect(stored.distinct + stored.withoutId).toBe(emitted);

    for (const [name, c] of [['first', a], ['second', b], ['late', late]] as const) {
      expect(c.child.exitCode, `the ${name} collector runs`).toBeNull();
      // Said once when the database went away and once when it came back: no line per retry.
      expect(count(c.stderr(), WAITS), `the ${name} collector's waiting lines`).toBe(1);
      expect(count(c.stderr(), BACK), `the ${name} collector's back lines`).toBe(1);
    }
    for (const c of [a, b, late]) c.child.kill('SIGTERM');
    for (const c of [a, b, late]) expect(await c.exit).toBe(0);
    expect(late.stderr()).toContain('alarms follow: stopped.');
  }, 300_000);
});
