/**
 * The Overview's Fleet card (issue 25.4, C-89), must show: a console joined to a team (a private
 * PostgreSQL cluster, a RabbitMQ node of the file's own, the Falcon and Defender simulators, two
 * real `northbound worker` processes and one real `alarms follow --database-url` collector) sees
 * both workers alive and the collector with its lag and last stored change; a worker killed with
 * SIGKILL is shown not alive within 30 s, the other still alive; a collector stopped says so; the
 * broker's reach is "not known" until the console knows an AMQP address, then checked.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_ROLES } from '../../../electron/app/team';
import type { FleetHealth } from '../../../shared/model/fleet-health';
import type { TeamView } from '../../../shared/model/team';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { startFleetSimulators, startFleetTeam, type FleetSimulators, type FleetTeam } from '../../support/fleet';
import { usePostgres } from '../../support/postgres';
import { until } from '../../support/until';
import { useCollectorWorld } from '../alarms/fleet-collector';

const pg = usePostgres();
const cw = useCollectorWorld('nb.fleet-health.alarms');
let dir!: string;
let sims!: FleetSimulators;
let conn: amqp.ChannelModel | undefined;
let team!: FleetTeam;
let h: AppHarness | undefined;
let dbName = '';
const children: ChildProcess[] = [];

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-fleet-health-'));
  sims = await startFleetSimulators(2, 10);
  conn = await amqp.connect(cw.rabbit.url);
  const ch = await conn.createChannel();
  const db = await pg.freshDatabase('fleethealth');
  dbName = db.name;
  team = await startFleetTeam({ name: 'health', db, dir, sims, ch, children, amqpUrl: cw.rabbit.url, viaCli: false });
  // A console's own database user (the tests' cluster trusts loopback: no password).
  await db.pool.query(`CREATE ROLE carol LOGIN IN ROLE ${TEAM_ROLES.console}`);
}, 180_000);

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  await h?.close();
  await conn?.close().catch(() => undefined);
  await sims?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
}, 60_000);

type Joined = Extract<FleetHealth, { state: 'joined' }>;
const fleet = async (): Promise<Joined> => {
  const f = await h!.call<FleetHealth>('overview.fleet');
  if (f.state !== 'joined') throw new Error('not joined');
  return f;
};
/** Polls the card every 250 ms (as the window's refetch would, faster). */
let last: Joined | undefined;
const cardUntil = (what: string, probe: (f: Joined) => boolean, ms: number) =>
  until(what, async () => {
    const f = (last = await fleet());
    if (probe(f)) return f;
    await new Promise((r) => setTimeout(r, 250));
    return undefined;
  }, ms).catch((e: Error) => Promise.reject(new Error(`${e.message}; the card said ${JSON.stringify(last)}; workers: ${team.workers.map((w) => w.stderr.slice(-600)).join(' | ')}`)));

describe('the Fleet card', () => {
  it('shows workers alive, a worker killed (SIGKILL) as not alive within 30 s, the collector with its lag, the database and the broker', async () => {
    const a = team.worker('a');
    team.worker('b');
    const collector = cw.collector(team.url);
    cw.world.sim.alarms.generator.start();
    h = await startAppHarness();
    expect(await h.call<FleetHealth>('overview.fleet')).toEqual({ state: 'not-joined' });
    const joined = await h.call<TeamView>('team.join', { host: '127.0.0.1', port: pg.cluster().port, database: dbName, user: 'carol', tls: { mode: 'off' } });
    expect(joined).toMatchObject({ joined: true, role: 'northbound_console' });

    const up = await cardUntil('both workers alive and the collector storing', (f) => f.read?.workers.filter((w) => w.alive).length === 2 && f.read.collectors.some((c) => c.alive && c.lastStoredAt !== null), 120_000);
    expect(up.database).toMatchObject({ reachable: true, address: `127.0.0.1:${pg.cluster().port}/${dbName}`, error: null });
    expect(up.broker).toEqual({ state: 'unknown' });
    expect(up.read!.connectors).toBe(4);
    expect(up.read!.workers.map((w) => [w.id, w.leaseSeconds, w.stopped])).toEqual([['a', 5, false], ['b', 5, false]]);
    const col = up.read!.collectors[0]!;
    expect(col).toMatchObject({ alive: true, stopped: false, source: expect.stringMatching(/^node:/), connected: true });
    expect(col.lagMs).toEqual(expect.any(Number));

    // The broker this console knows (Settings → Publication): checked without signing in.
    await h.call('publication.update', { amqpUrl: cw.rabbit.url.replace('guest:guest@', 'guest@') });
    expect((await fleet()).broker).toMatchObject({ state: 'reachable', address: expect.stringContaining('127.0.0.1'), error: null });

    a.child.kill('SIGKILL');
    const killedAt = Date.now();
    await a.exited;
    const down = await cardUntil('worker a not alive', (f) => f.read?.workers.find((w) => w.id === 'a')?.alive === false, 30_000);
    const took = Date.now() - killedAt;
    expect(took).toBeLessThan(30_000);
    expect(down.read!.workers.find((w) => w.id === 'a')).toMatchObject({ alive: false, stopped: false });
    expect(down.read!.workers.find((w) => w.id === 'b')).toMatchObject({ alive: true });
    expect(Date.parse(down.read!.asOf)).toBeGreaterThanOrEqual(killedAt);
    console.log(`fleet-health: worker a (lease 5 s) shown not alive ${took} ms after SIGKILL`);

    cw.world.sim.alarms.generator.stop();
    collector.child.kill('SIGTERM');
    await collector.exit;
    const stopped = await cardUntil('the collector stopped', (f) => f.read?.collectors[0]?.stopped === true, 15_000);
    expect(stopped.read!.collectors[0]).toMatchObject({ alive: false, stopped: true, state: 'stopped' });
  }, 300_000);
});
