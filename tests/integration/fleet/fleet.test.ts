/**
 * The collector fleet end to end (issue 24, must show): a private PostgreSQL cluster, a real
 * RabbitMQ, the Falcon and Defender simulators with 30 tenants, `team init` and `team connectors
 * import` through the command line, and 3 `northbound worker` processes. Every due poll runs on
 * exactly one worker; one worker killed with SIGKILL mid-cycle has its cycle completed by another;
 * every cycle is committed once and published exactly once (the messages on the exchange compared
 * by id and content); a worker stopped with SIGTERM hands back and says so in the database.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../support/cli';
import { usePostgres } from '../../support/postgres';
import { startFleetSimulators, startFleetTeam, type CycleRow, type FleetSimulators, type FleetTeam } from '../../support/fleet';
import { ensureRabbitMq, RABBITMQ_START_MS } from '../../support/rabbitmq';
import { until } from '../../support/until';

const TENANTS = 15; // per vendor: 30 in all
const HOSTS = 20;
const pg = usePostgres();
let dir!: string;
let sims!: FleetSimulators;
let conn: amqp.ChannelModel | undefined;
let ch!: amqp.Channel;
/** Whether the test's channel to the broker closed (a broker stopped under the run loses what it held for the test). */
let channelClosed = false;
const children: ChildProcess[] = [];

/** A team of its own: a fresh database set up (through the commands with `viaCli`, else by the same calls here), its exchange and queue. */
const startTeam = async (name: string, viaCli = false) => startFleetTeam({ name, db: await pg.freshDatabase(name), dir, sims, ch, children, viaCli });
type Team = FleetTeam;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-fleet-'));
  const broker = await ensureRabbitMq();
  conn = await amqp.connect(broker.url);
  ch = await conn.createChannel();
  ch.on('close', () => (channelClosed = true));
  sims = await startFleetSimulators(TENANTS, HOSTS);
  // Every Falcon call waits a little, so a cycle lasts long enough to be stopped in the middle.
  sims.falcon.faults.slowCalls = 1_000_000_000;
}, RABBITMQ_START_MS + 60_000);

beforeEach(() => {
  sims.falcon.faults.slowMs = 150;
});

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await ch?.close().catch(() => undefined);
  await conn?.close().catch(() => undefined);
  await sims?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

/** Waits until every connector has a completed, published cycle; answers the cycles (or says what was missing, with the workers' last words). */
async function allPublished(team: Team, timeoutMs = 150_000): Promise<CycleRow[]> {
  try {
    return await until(
      'every connector completed and published',
      async () => {
        const rows = await team.cycles();
        const ok = new Set(rows.filter((r) => r.status === 'completed' && r.published_at).map((r) => r.connector_id));
        return ok.size === 2 * TENANTS ? rows : undefined;
      },
      timeoutMs,
    );
  } catch (e) {
    const rows = await team.cycles().catch(() => []);
    const by = new Map<string, number>();
    for (const r of rows) by.set(`${r.status}${r.published_at ? '+published' : ''}`, (by.get(`${r.status}${r.published_at ? '+published' : ''}`) ?? 0) + 1);
    const tails = team.workers.map((w) => `--- ${w.id}\n${w.stderr.split('\n').slice(-15).join('\n')}`).join('\n');
    const errors = [...new Set(rows.flatMap((r) => (r.error ? [`${r.status}: ${r.error}`] : [])))].join('\n');
    throw new Error(`${(e as Error).message}: cycles ${JSON.stringify(Object.fromEntries(by))}\n${errors}\n${tails}`, { cause: e });
  }
}

/** One completed cycle per connector, none running, and each completed cycle on the exchange exactly once, as stored. */
async function expectPublishedOnce(team: Team, done: CycleRow[]) {
  const completed = done.filter((r) => r.status === 'completed');
  expect(completed).toHaveLength(2 * TENANTS);
  expect(new Set(completed.map((r) => r.connector_id)).size).toBe(2 * TENANTS);
  expect(done.filter((r) => r.status === 'running')).toEqual([]);
  await until('every publication received', () => (new Set(team.received.map((m) => m.body.cycleId)).size >= completed.length ? true : undefined), 30_000).catch((e: unknown) => {
    const got = new Set(team.received.map((m) => String(m.body.cycleId)));
    throw new Error(`${String(e)}: ${got.size} of ${completed.length} cycles received; missing ${completed.filter((r) => !got.has(r.id)).map((r) => `${r.id} (published ${String(r.published_at)})`).join(', ')}; the test's channel ${channelClosed ? 'closed' : 'open'}`);
  });
  const ids = team.received.map((m) => m.id);
  expect(new Set(ids).size).toBe(ids.length);
  expect(team.received.map((m) => String(m.body.cycleId)).sort()).toEqual(completed.map((r) => r.id).sort());
  for (const m of team.received) {
    const cycle = completed.find((r) => r.id === String(m.body.cycleId))!;
    expect(m.id).toBe(`${cycle.connector_id}:${cycle.id}:1`);
    expect(m.body.connectorId).toBe(cycle.connector_id);
    expect(m.body.summary.hosts).toBe(cycle.hosts);
    expect(m.body.hosts.length).toBe(cycle.hosts - (m.body.summary.notAssessed === 'withhold' ? m.body.summary.bands['Not assessed'] : 0));
  }
}

describe('a fleet of workers over 30 tenants', () => {
  it('3 workers: every due poll runs on one worker; one killed with SIGKILL mid-cycle has its tenant polled by another; every cycle committed and published once', async () => {
    const team = await startTeam('kill', true);
    const [w1] = ['w1', 'w2', 'w3'].map((id) => team.worker(id));
    const victim = await until('w1 runs a cycle', async () => (await team.pool.query<{ connector_id: string; cycle_id: string }>("SELECT connector_id, cycle_id::text FROM fleet_claims WHERE worker = 'w1' AND cycle_id IS NOT NULL LIMIT 1")).rows[0], 60_000);
    w1!.child.kill('SIGKILL');
    expect(await w1!.exited).toBeNull();
    const done = await allPublished(team);
    await expectPublishedOnce(team, done);
    // The victim's cycle was interrupted; another worker completed that tenant's poll.
    expect(done.find((r) => r.id === victim.cycle_id)?.status).toBe('interrupted');
    const claim = (await team.pool.query<{ last_worker: string; last_status: string }>('SELECT last_worker, last_status FROM fleet_claims WHERE connector_id = $1', [victim.connector_id])).rows[0]!;
    expect(claim.last_status).toBe('completed');
    expect(['w2', 'w3']).toContain(claim.last_worker);
    // Every cycle that started ran on one worker: no connector had two cycles at once, and only w1's were interrupted.
    const interrupted = done.filter((r) => r.status === 'interrupted');
    expect(interrupted.length).toBeGreaterThan(0);
    expect(interrupted.length).toBeLessThanOrEqual(4);
    // The team's status (any console's view) names the workers and who polled what.
    const status = await runCli(['team', 'status', '--database-url', team.url]);
    expect(status.code, status.stderr).toBe(0);
    const s = JSON.parse(status.stdout) as { connectors: Array<{ lastWorker: string; lastStatus: string }>; workers: Array<{ id: string }> };
    expect(s.connectors).toHaveLength(2 * TENANTS);
    expect(s.connectors.every((c) => c.lastStatus === 'completed')).toBe(true);
    expect(new Set(s.connectors.map((c) => c.lastWorker))).toEqual(new Set(['w2', 'w3']));
    expect(s.workers.map((w) => w.id)).toEqual(['w1', 'w2', 'w3']);
  }, 240_000);

  it('SIGTERM hands the running cycles back: the worker exits 0 marked stopped, and another worker polls those tenants', async () => {
    const team = await startTeam('term');
    // Slower Falcon calls: a's Falcon cycles are surely under way when it is told to stop.
    sims.falcon.faults.slowMs = 1_000;
    const a = team.worker('a', ['--progress-every', '1']);
    await until('a runs cycles', async () => Number((await team.pool.query<{ n: string }>("SELECT count(*) AS n FROM fleet_claims WHERE worker = 'a' AND cycle_id IS NOT NULL")).rows[0]!.n) > 0 || undefined, 60_000);
    // Its progress line says what it runs.
    await until('a says what it runs', () => /worker a: \d+ running \(.+\); \d+ cycle\(s\) completed, \d+ failed since start; database reachable/.test(a.stderr) || undefined, 30_000);
    const held = (await team.pool.query<{ id: string }>("SELECT cycle_id::text AS id FROM fleet_claims WHERE worker = 'a' AND cycle_id IS NOT NULL")).rows.map((r) => r.id);
    a.child.kill('SIGTERM');
    expect(await a.exited).toBe(0);
    expect(a.stderr).toContain('worker stopped');
    const row = (await team.pool.query<{ stopped_at: Date | null; running: string[] }>("SELECT stopped_at, running FROM fleet_workers WHERE id = 'a'")).rows[0]!;
    expect(row.stopped_at).not.toBeNull();
    expect(row.running).toEqual([]);
    // Nothing is held by the stopped worker, and its cancelled cycles never committed.
    expect((await team.pool.query("SELECT 1 FROM fleet_claims WHERE worker = 'a'")).rowCount).toBe(0);
    const cancelled = (await team.cycles()).filter((r) => r.status === 'cancelled');
    expect(cancelled.length, a.stderr).toBeGreaterThan(0);
    // What it ran when told to stop ended cancelled (or, caught in its commit, completed); none is left running.
    for (const id of held) expect(['cancelled', 'completed']).toContain((await team.cycles()).find((r) => r.id === id)?.status);
    sims.falcon.faults.slowMs = 150;
    team.worker('b');
    const done = await allPublished(team);
    await expectPublishedOnce(team, done);
  }, 240_000);

  it('PostgreSQL stopped for 30 s mid-cycle: the workers wait, reconnect and go on; nothing lost, nothing doubled', async () => {
    const team = await startTeam('outage');
    const running = ['p1', 'p2'].map((id) => team.worker(id));
    await until('both workers started', async () => Number((await team.pool.query<{ n: string }>('SELECT count(*) AS n FROM fleet_workers')).rows[0]!.n) === 2 || undefined, 60_000);
    await until('cycles under way', async () => Number((await team.pool.query<{ n: string }>('SELECT count(*) AS n FROM fleet_claims WHERE cycle_id IS NOT NULL')).rows[0]!.n) > 0 || undefined, 60_000);
    const cluster = pg.cluster();
    await cluster.pause();
    // A worker started while the database is away waits for it too.
    const late = team.worker('p3');
    await until('the late worker says it waits', () => /could not be reached/.test(late.stderr) || undefined, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 30_000));
    await cluster.resume();
    const done = await allPublished(team, 180_000);
    await expectPublishedOnce(team, done);
    for (const w of [...running, late]) {
      expect(w.stderr).toMatch(/could not be reached/);
      expect(w.stderr).toMatch(/reachable again/);
      expect(w.child.exitCode).toBeNull();
    }
    expect(late.stderr).toMatch(/worker started/);
  }, 300_000);
});
