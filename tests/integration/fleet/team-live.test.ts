/**
 * Issue 25.2 "actions stay each operator's own" (C-87, C-88): two consoles (two apps on two data
 * folders) joined to one team on a private PostgreSQL cluster set up by team init.
 *
 * - An alarm batch a collector stores reaches both consoles' event streams within 2 s.
 * - An acknowledge made through console A's router goes to the node with A's own signed-in session
 *   (the demo node's OAuth admin). A console's database role may not write alarms, so the node's
 *   answer reaches the team's store the way every change does: through a collector. The collector
 *   here is its REST path — `backfill` (electron/alarms/backfill.ts, what `alarms follow` runs at
 *   start, after a reconnect and on a gap) — with a worker's database user and a node session of
 *   its own (console B's basic connection, the node's operator: not A's), not the broker path
 *   (that would need RabbitMQ). B then shows the handling with A's node user within 2 s.
 * - The activity entry A's acknowledge made appears in B's activity list and as B's
 *   `activity.changed` within 2 s, with who (desk user, node user) and which console; the same
 *   for a deploy A asks for (sent from A's OAuth session, the only request to the node).
 * - A cycle a worker commits reaches both as `edr.progress` completed within 2 s; a burst of 20
 *   alarm batches reaches a console folded (250 ms apart at least, every change counted once).
 * - The listening connection survives the database restarting: after pg_ctl stop and start, B
 *   says "maybe changed" once (`team.changed`) and the next batch reaches it within 2 s again.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MgmtSimulator } from '@northbound/simulators/demo';
import { backfill } from '../../../electron/alarms/backfill';
import { NodeAlarmApi } from '../../../electron/alarms/node-api';
import { openPgAlarmStore, type PgAlarmStore } from '../../../electron/alarms/store/pg-alarm-store';
import { TEAM_ROLES } from '../../../electron/app/team';
import { fleetAlarmSource } from '../../../electron/app/team-world';
import { openPgEdrStore } from '../../../electron/edr/store/edr-pg';
import type { PgPool } from '../../../electron/store/postgres';
import type { AlarmDetail, AlarmPage } from '../../../shared/model/alarms';
import type { ActivityEntry } from '../../../shared/model/activity';
import type { TeamView } from '../../../shared/model/team';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { usePostgres } from '../../support/postgres';
import { teamDatabase } from '../../support/team-database';
import { until } from '../../support/until';

const pg = usePostgres();
let dir: string;
let dbName: string;
let port: number;
/** The worker's login (the collector's and the workers' writes). */
let w1: PgPool;
let a: AppHarness;
let b: AppHarness;
let sim: MgmtSimulator;
/** A's connection (the demo node, OAuth: the node's admin) and B's connection to the same node (basic: the node's operator). */
let aProfile: string;
let bProfile: string;
let source: string;
let collectorStore: PgAlarmStore;

const input = (user: string) => ({ host: '127.0.0.1', port, database: dbName, user, password: `${user}-pw`, tls: { mode: 'off' } });

type Pushed = { event: string; payload: Record<string, unknown> };
const pushed = (h: AppHarness, from = 0): Pushed[] => h.pushed.slice(from).map((p) => JSON.parse(p) as Pushed);

/** The collector's REST path: every change of the node since `fromMs`, stored as `alarms follow` stores it. */
async function collect(fromMs = 0) {
  const request = b.app.sessions.get(bProfile).request.bind(b.app.sessions.get(bProfile));
  let headSeq = 0;
  const r = await backfill(new NodeAlarmApi(request), collectorStore, source, { fromMs, onPage: (p) => (headSeq = Math.max(headSeq, p.headSeq)) });
  return { ...r, headSeq };
}

/** Waits for `h`'s first event after `from` that `match` accepts, at most `ms` after `since`. */
async function eventWithin(h: AppHarness, from: number, match: (e: Pushed) => boolean, since: number, ms: number, what: string): Promise<{ event: Pushed; afterMs: number }> {
  const event = await until(what, () => pushed(h, from).find(match), ms + 500);
  const afterMs = Date.now() - since;
  expect(afterMs, `${what}: ${afterMs} ms`).toBeLessThanOrEqual(ms);
  return { event, afterMs };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-team-live-'));
  const team = await teamDatabase(pg, 'teamlive', [['w1', TEAM_ROLES.worker], ['alice', TEAM_ROLES.console], ['carol', TEAM_ROLES.console]], dir);
  dbName = team.name;
  port = team.port;
  w1 = team.login('w1');
  collectorStore = await openPgAlarmStore(w1);

  a = await startAppHarness({ openDemo: true, app: { demoEdr: false } });
  sim = a.app.demo.simulator!;
  // Deterministic: the node changes only when the test says so.
  sim.alarms.generator.stop(true);
  sim.alarms.generator.step(5);
  aProfile = a.app.demo.status().oauthProfileId!;
  b = await startAppHarness();
  expect(await a.call<TeamView>('team.join', input('alice'))).toMatchObject({ joined: true, role: 'northbound_console' });
  expect(await b.call<TeamView>('team.join', input('carol'))).toMatchObject({ joined: true, role: 'northbound_console' });
  const operator = sim.users.find((u) => u.role === 'operator')!;
  const saved = await b.app.profiles.save(
    { name: 'Lab node', host: '127.0.0.1', basicPort: Number(new URL(sim.basicUrl).port), oauthPort: Number(new URL(sim.oauthUrl).port), authMode: 'basic', username: operator.username, password: operator.password, tls: { mode: 'pinned' } },
    { trust: { mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem } },
  );
  bProfile = saved.id;
  source = fleetAlarmSource({ host: '127.0.0.1', basicPort: Number(new URL(sim.basicUrl).port) });
  await a.call('session.signIn', { profileId: aProfile });
  await b.call('session.signIn', { profileId: bProfile });
  await until('both consoles listen to the team', () => a.app.team.current().live.listening && b.app.team.current().live.listening);
}, 120_000);

afterAll(async () => {
  await a?.close();
  await b?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('two consoles of one team', () => {
  it('an alarm batch a collector stores reaches both consoles’ event streams within 2 s', async () => {
    const [fromA, fromB] = [a.pushed.length, b.pushed.length];
    const r = await collect();
    const stored = Date.now();
    expect(r.added).toBeGreaterThan(0);
    const isChange = (profileId: string) => (e: Pushed) => e.event === 'alarms.changed' && e.payload.profileId === profileId && Number(e.payload.headSeq) >= r.headSeq;
    await eventWithin(a, fromA, isChange(aProfile), stored, 2000, 'A’s alarms.changed');
    await eventWithin(b, fromB, isChange(bProfile), stored, 2000, 'B’s alarms.changed');
    // Both read the same alarms from the team's store.
    const [pa, pb] = await Promise.all([a.call<AlarmPage>('alarms.list', { profileId: aProfile, filter: { cleared: 'all' }, offset: 0, limit: 100 }), b.call<AlarmPage>('alarms.list', { profileId: bProfile, filter: { cleared: 'all' }, offset: 0, limit: 100 })]);
    expect(pa.total).toBe(sim.alarms.model.count);
    expect(pb.rows.map((x) => x.id)).toEqual(pa.rows.map((x) => x.id));
  });

  it('an acknowledge through A’s router, with A’s own session, shows in B with A’s node user within 2 s; the activity entry too, with which console', async () => {
    const admin = sim.users.find((u) => u.role === 'admin')!;
    const target = (await a.call<AlarmPage>('alarms.list', { profileId: aProfile, filter: { cleared: 'active' }, offset: 0, limit: 1 })).rows[0]!;
    const [fromB] = [b.pushed.length];
    const acked = Date.now();
    const res = await a.call<{ updated: number }>('alarms.acknowledge', { profileId: aProfile, ids: [target.id], note: 'A looks into it' });
    expect(res.updated).toBe(1);
    // The node has it, made by A's node user (its own session); the console stored nothing itself.
    expect(sim.alarms.model.all().some((x) => x.handlings.some((h) => h.user === admin.username && h.description === 'A looks into it'))).toBe(true);

    // The activity entry: in the team's log, told to B.
    const { event, afterMs } = await eventWithin(b, fromB, (e) => e.event === 'activity.changed' && (e.payload.entry as ActivityEntry).action === 'alarms.acknowledge', acked, 2000, 'B’s activity.changed');
    const entry = event.payload.entry as ActivityEntry;
    expect(entry).toMatchObject({ nodeUser: admin.username, connection: 'Demo node (OAuth)', outcome: 'ok', detail: 'A looks into it' });
    // A's console: this machine's name and A's install ID (kept in A's settings).
    expect(entry.console).toBe(`${os.hostname()} · ${String(a.adapters.settings.get('consoleId')).slice(0, 8)}`);
    const aConsole = entry.console;
    const log = await b.call<{ rows: ActivityEntry[] }>('activity.list', { limit: 10 });
    expect(log.rows[0]).toMatchObject({ id: entry.id, action: 'alarms.acknowledge', nodeUser: admin.username, console: aConsole });
    // B is another install: its own entries name another console.
    expect(b.adapters.settings.get('consoleId')).not.toBe(a.adapters.settings.get('consoleId'));
    console.info(`activity entry reached B in ${afterMs} ms`);

    // The collector stores the node's change; B shows it, with A's node user.
    const bId = target.id;
    const r = await collect(Date.now() - 60_000);
    const stored = Date.now();
    expect(r.added).toBeGreaterThan(0);
    await eventWithin(b, fromB, (e) => e.event === 'alarms.changed' && e.payload.profileId === bProfile && (e.payload.ids as number[]).includes(bId), stored, 2000, 'B’s alarms.changed for the acknowledged alarm');
    const detail = await b.call<AlarmDetail>('alarms.get', { profileId: bProfile, id: bId });
    expect(detail.handling).toMatchObject({ state: 'ack', user: admin.username, description: 'A looks into it' });
    expect(Date.now() - stored).toBeLessThanOrEqual(2000);
    console.info(`acknowledge to B's view, the collector's backfill included: ${Date.now() - acked} ms`);
  });

  it('a deploy through A’s router goes to the node with A’s own session; the team’s activity log has it with A’s console, and B is told within 2 s', async () => {
    const admin = sim.users.find((u) => u.role === 'admin')!;
    await a.call('inventory.refresh', { profileId: aProfile, what: 'devices' });
    const device = (await a.call<{ items: Array<{ deviceName: string }> }>('inventory.devices', { profileId: aProfile })).items[0]!;
    const fromB = b.pushed.length;
    sim.stats.reset();
    const sent = Date.now();
    const res = await a.call<{ taskId: string }>('devices.deploy', { profileId: aProfile, deviceName: device.deviceName });
    expect(res.taskId).toBeTruthy();
    // To the node from A's OAuth session (the node's admin), nobody else's.
    const deploys = sim.stats.requests.filter((r) => r.method === 'POST' && r.path.includes(encodeURIComponent(device.deviceName)));
    expect(deploys).toHaveLength(1);
    expect(deploys[0]).toMatchObject({ port: 'oauth', status: 202 });
    const { event } = await eventWithin(b, fromB, (e) => e.event === 'activity.changed' && (e.payload.entry as ActivityEntry).action === 'devices.deploy', sent, 2000, 'B’s activity.changed for the deploy');
    const entry = event.payload.entry as ActivityEntry;
    expect(entry).toMatchObject({ nodeUser: admin.username, connection: 'Demo node (OAuth)', outcome: 'ok', objectName: device.deviceName, detail: `task ${res.taskId}` });
    expect(entry.console).toBe(`${os.hostname()} · ${String(a.adapters.settings.get('consoleId')).slice(0, 8)}`);
    expect((await b.call<{ rows: ActivityEntry[] }>('activity.list', { limit: 5 })).rows.some((r) => r.id === entry.id)).toBe(true);
  });

  it('a cycle a worker commits reaches both consoles as edr.progress completed within 2 s', async () => {
    const edr = await openPgEdrStore(w1);
    const connectorId = 'team-live-falcon';
    const tenant = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const [fromA, fromB] = [a.pushed.length, b.pushed.length];
    const cycle = await edr.beginCycle(connectorId, 'falcon', tenant, new Date());
    await edr.stageScores(cycle, connectorId, makeScoredHosts(4, { cycleSalt: cycle, tenantId: tenant }));
    const hosts = await edr.commitCycle(cycle, new Date());
    const committed = Date.now();
    const done = (e: Pushed) => e.event === 'edr.progress' && e.payload.connectorId === connectorId && e.payload.cycleId === cycle && e.payload.phase === 'completed';
    const { event } = await eventWithin(a, fromA, done, committed, 2000, 'A’s edr.progress');
    expect(event.payload).toMatchObject({ done: hosts, total: hosts });
    await eventWithin(b, fromB, done, committed, 2000, 'B’s edr.progress');
  });

  it('a burst of batches is folded: at most one alarms.changed per connection every 250 ms, the last with the newest headSeq', async () => {
    const times: Array<{ at: number; headSeq: number; changes: number }> = [];
    const off = b.app.events.subscribe((event, payload) => {
      const p = payload as { profileId: string; headSeq: number; changes: number };
      if (event === 'alarms.changed' && p.profileId === bProfile) times.push({ at: performance.now(), headSeq: p.headSeq, changes: p.changes });
    });
    try {
      const T = Date.now();
      let last = 0;
      for (let i = 0; i < 20; i++) {
        const item = {
          head: { device: 'dev-burst', deviceName: 'dev-burst', org: 'Contoso', object: `burst-${i}`, type: 'interface-down', specificProblem: 'link-down', severity: 'minor' as const, cleared: false, text: 'down', lastChangeMs: T + i },
          changes: [{ eventMs: T + i, severity: 'minor' as const, text: 'down' }],
          handlings: [],
          messageId: null,
        };
        last = (await collectorStore.ingest(source, [item], { storedMs: T + i })).headSeq;
      }
      await until('B’s event with the burst’s newest headSeq', () => times.some((t) => t.headSeq === last), 2000);
      for (let i = 1; i < times.length; i++) expect(times[i]!.at - times[i - 1]!.at).toBeGreaterThanOrEqual(240);
      expect(times.length).toBeLessThan(20);
      expect(times.reduce((n, t) => n + t.changes, 0)).toBe(20);
    } finally {
      off();
    }
  });

  it('the listening connection survives the database restarting; the console reads again after it', async () => {
    const fromB = b.pushed.length;
    await pg.cluster().pause();
    await until('B has lost its listening connection', () => !b.app.team.current().live.listening, 10_000);
    await pg.cluster().resume();
    const resumed = Date.now();
    // One "maybe changed": the window reads everything again.
    await until('B says its views may have changed', () => pushed(b, fromB).find((e) => e.event === 'team.changed' && e.payload.joined === true), 20_000);
    expect(pushed(b, fromB).filter((e) => e.event === 'team.changed')).toHaveLength(1);
    console.info(`B listening again ${Date.now() - resumed} ms after the database was back`);
    // And B reads the store (its pool reconnects too).
    await until('B reads the team’s alarms again', () => b.callRaw('alarms.list', { profileId: bProfile, filter: { cleared: 'all' }, offset: 0, limit: 5 }).then((x) => x.ok));

    // Live again: a new change reaches B within 2 s.
    await until('the collector’s connection is back', () => collectorStore.headSeq(source).then(() => true, () => false));
    sim.alarms.generator.step(2);
    const from = b.pushed.length;
    const r = await collect(Date.now() - 60_000);
    const stored = Date.now();
    expect(r.added).toBeGreaterThan(0);
    await eventWithin(b, from, (e) => e.event === 'alarms.changed' && e.payload.profileId === bProfile && Number(e.payload.headSeq) >= r.headSeq, stored, 2000, 'B’s alarms.changed after the restart');
  }, 60_000);
});
