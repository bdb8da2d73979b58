/**
 * Issue 25.1, risk settings in a team (C-93, C-94), on a private PostgreSQL cluster set up by team
 * init, with users that sign in by password as the roles it made:
 *
 * - A console role's what-if Save is refused by main through the router, saying which role may;
 *   its own login cannot write the connector's risk nor ask for a rescore with raw SQL, nor can a
 *   worker's; an admin's login may ask for a rescore but not move a claim otherwise.
 * - An admin console's Save is validated as a desk's (the same error for the same bad settings),
 *   stored in the team's connector and recorded in the shared log with the console; a
 *   `northbound worker` process rescores the tenant's stored hosts under the new settings as a
 *   cycle of kind `rescore` (the scores `scoreHost` gives under them), leaving the next poll's
 *   time as it was; another console is told of the new settings (`connectors.changed`) and of the
 *   rescored cycle (`edr.progress`), and reads both.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_ROLES } from '../../../electron/app/team';
import { FleetConnectors } from '../../../electron/edr/fleet/fleet-connectors';
import { openPgEdrStore } from '../../../electron/edr/store/edr-pg';
import type { PgPool } from '../../../electron/store/postgres';
import { compileRiskConfig, scoreHost, tenantRiskConfigOrThrow } from '../../../shared/risk';
import type { ActivityEntry } from '../../../shared/model/activity';
import type { TeamView } from '../../../shared/model/team';
import type { ZtaSnapshot } from '../../../shared/model/zta';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { usePostgres } from '../../support/postgres';
import { teamDatabase, type TeamDatabase } from '../../support/team-database';
import { until } from '../../support/until';

const pg = usePostgres();
let dir: string;
let owner: PgPool;
let dbName: string;
let port: number;
let connectorId: string;
let keyFile: string;
let team: TeamDatabase;
const harnesses: AppHarness[] = [];
const children: ChildProcess[] = [];

const TENANT = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';
const T = Date.UTC(2026, 10, 29, 12);
const FINISHED = new Date(T + 60_000);
const hosts = makeScoredHosts(12, { cycleSalt: 3, tenantId: TENANT });
const NEW_RISK = { weights: { critical: 100, operational: 0 } };

const defender = (patch: Record<string, unknown> = {}) => ({
  vendor: 'defender',
  name: 'Team Defender',
  tenantId: TENANT,
  clientId: '0f1e2d3c-4b5a-4968-8776-655443322110',
  clientSecret: 'defender-secret-1',
  apiUrl: 'https://127.0.0.1:9444',
  idpUrl: 'https://127.0.0.1:9445',
  pollIntervalMinutes: 60,
  enabled: true,
  ...patch,
});

const input = (user: string) => ({ host: '127.0.0.1', port, database: dbName, user, password: `${user}-pw`, tls: { mode: 'off' } });
const login = (user: string) => team.login(user, 1);

async function app(): Promise<AppHarness> {
  const h = await startAppHarness();
  harnesses.push(h);
  return h;
}

type Pushed = { event: string; payload: Record<string, unknown> };
const pushed = (h: AppHarness, from = 0): Pushed[] => h.pushed.slice(from).map((p) => JSON.parse(p) as Pushed);

const claimRow = async () =>
  (await owner.query<{ due: string; requests: string; rescored: string; last_status: string | null; last_cycle_id: string | null }>('SELECT due_at::text AS due, rescore_requests::text AS requests, rescored::text AS rescored, last_status, last_cycle_id::text FROM fleet_claims WHERE connector_id = $1', [connectorId])).rows[0]!;
const storedRisk = async () => (await owner.query<{ risk: unknown }>("SELECT config->'risk' AS risk FROM fleet_connectors WHERE id = $1", [connectorId])).rows[0]!.risk;

/** A `northbound worker` process on the team as w1; its publications go to a broker that is not there (not what this file checks). */
function startWorker(id: string): { child: ChildProcess; stderr: () => string } {
  let err = '';
  const child = spawn(
    process.execPath,
    [path.resolve('bin/northbound.mjs'), 'worker', '--database-url', `postgres://w1@127.0.0.1:${port}/${dbName}`, '--amqp-url', 'amqp://nobody@127.0.0.1:1', '--key-file', keyFile, '--worker-id', id, '--lease-seconds', '5', '--publish-delay-seconds', '3600', '--grace-seconds', '0'],
    { env: { ...process.env, NORTHBOUND_DATABASE_PASSWORD: 'w1-pw' }, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  children.push(child);
  child.stderr!.on('data', (d) => (err += String(d)));
  return { child, stderr: () => err };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-team-risk-'));
  team = await teamDatabase(pg, 'teamrisk', [['w1', TEAM_ROLES.worker], ['alice', TEAM_ROLES.console], ['bob', TEAM_ROLES.admin]], dir);
  owner = team.owner;
  dbName = team.name;
  port = team.port;
  keyFile = team.keyFile;
  const w1 = login('w1');

  // The team's tenant, registered by an admin, with a cycle a worker stored; its next poll an hour away.
  const [registered] = await new FleetConnectors(login('bob')).registerBulk({ version: 1, connectors: [defender()] });
  expect(registered).toMatchObject({ ok: true });
  connectorId = registered!.id!;
  await owner.query("UPDATE fleet_claims SET due_at = now() + interval '1 hour' WHERE connector_id = $1", [connectorId]);
  const edr = await openPgEdrStore(w1);
  const cycle = await edr.beginCycle(connectorId, 'defender', TENANT, new Date(T));
  await edr.stageScores(cycle, connectorId, hosts);
  await edr.commitCycle(cycle, FINISHED);
}, 120_000);

afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await Promise.all(harnesses.map((h) => h.close()));
  rmSync(dir, { recursive: true, force: true });
});

describe('risk settings in a team', () => {
  it('a console role: main refuses the what-if Save with why and who may; its login cannot write the risk nor ask for a rescore', async () => {
    const h = await app();
    expect(await h.call<TeamView>('team.join', input('alice'))).toMatchObject({ joined: true, role: 'northbound_console' });
    const before = { risk: await storedRisk(), claim: await claimRow() };

    const refused = await h.callRaw('zta.applyRisk', { connectorId, risk: NEW_RISK });
    expect(refused.ok).toBe(false);
    expect(refused.error).toMatchObject({ code: 'request.forbidden', message: 'Your database role northbound_console may not change risk settings.', details: { reason: 'role', role: 'northbound_console' } });
    expect(refused.error!.hint).toMatch(/A member of northbound_admin saves a tenant’s risk settings/);
    expect({ risk: await storedRisk(), claim: await claimRow() }).toEqual(before);
    // The refusal is in the team's log, with this console.
    const log = await until('the refusal in the log', async () => (await h.call<{ rows: ActivityEntry[] }>('activity.list', { limit: 10 })).rows.find((r) => r.action === 'zta.applyRisk'));
    expect(log).toMatchObject({ outcome: 'failed', objectName: 'Team Defender', console: expect.stringMatching(/ · [0-9a-f]{8}$/) });

    // Its database login may not do it either, whatever the window asks.
    const alice = login('alice');
    await expect(alice.query(`UPDATE fleet_connectors SET config = jsonb_set(config, '{risk}', '{"weights":{"critical":100,"operational":0}}') WHERE id = $1`, [connectorId])).rejects.toThrow(/permission denied for table fleet_connectors/);
    await expect(alice.query('UPDATE fleet_claims SET rescore_requests = rescore_requests + 1 WHERE connector_id = $1', [connectorId])).rejects.toThrow(/permission denied for table fleet_claims/);
    await expect(alice.query("INSERT INTO fleet_connectors (id, config) VALUES ('x', '{}')")).rejects.toThrow(/permission denied/);
    // A worker reads the settings and serves requests, and cannot change the settings.
    await expect(login('w1').query(`UPDATE fleet_connectors SET config = jsonb_set(config, '{risk}', '{}') WHERE id = $1`, [connectorId])).rejects.toThrow(/permission denied for table fleet_connectors/);
    // An admin's login may ask for a rescore, and may not move a claim's next poll or holder.
    const bob = login('bob');
    await expect(bob.query("UPDATE fleet_claims SET due_at = now(), worker = 'bob' WHERE connector_id = $1", [connectorId])).rejects.toThrow(/permission denied for table fleet_claims/);
    expect({ risk: await storedRisk(), claim: await claimRow() }).toEqual(before);
  }, 60_000);

  it('an admin: validated as on a desk, stored in the team, logged with the console; a worker process rescores the stored hosts; another console follows', async () => {
    // The desk's answer to bad settings, on a connector of the desk's own.
    const h = await app();
    const local = await h.call<{ id: string }>('connectors.save', defender({ name: 'Desk Defender' }));
    const bad = { weights: { critical: 90, operational: 40 } };
    const deskError = (await h.callRaw('zta.applyRisk', { connectorId: local.id, risk: bad })).error;
    expect(deskError).toMatchObject({ code: 'request.invalid', message: expect.stringMatching(/risk scoring settings/i) });

    expect(await h.call<TeamView>('team.join', input('bob'))).toMatchObject({ joined: true, role: 'northbound_admin' });
    const viewer = await app();
    expect(await viewer.call<TeamView>('team.join', input('alice'))).toMatchObject({ joined: true, role: 'northbound_console' });
    await until('the viewer listens to the team', () => viewer.app.team.current().live.listening);
    const before = await claimRow();

    // The same error for the same settings; nothing stored.
    expect((await h.callRaw('zta.applyRisk', { connectorId, risk: bad })).error).toEqual(deskError);
    expect(await storedRisk()).toBeNull();
    expect((await claimRow()).requests).toBe(before.requests);

    // No worker yet: the settings are stored and the rescore is owed, the window told so.
    const from = viewer.pushed.length;
    const saved = await h.call<{ cycleId: number | null; rescore?: { requestedAt: string; workersAlive: number } }>('zta.applyRisk', { connectorId, risk: NEW_RISK });
    expect(saved).toEqual({ cycleId: null, rescore: { requestedAt: expect.any(String), workersAlive: 0 } });
    expect(await storedRisk()).toEqual(NEW_RISK);
    expect(await claimRow()).toMatchObject({ requests: String(Number(before.requests) + 1), rescored: before.rescored, due: before.due });
    const entry = await until('the save in the shared log', async () => (await owner.query<{ outcome: string; object_name: string; console: string; detail: string; user: string }>("SELECT outcome, object_name, console, detail, \"user\" FROM activity WHERE action = 'zta.applyRisk' AND outcome = 'ok'")).rows[0]);
    expect(entry).toMatchObject({ object_name: 'Team Defender', detail: expect.stringContaining('rescore asked of the team’s workers') });
    expect(entry.console).toMatch(/ · [0-9a-f]{8}$/);

    // The other console is told, and reads the new settings.
    await until('connectors.changed on the viewer', () => pushed(viewer, from).find((e) => e.event === 'connectors.changed' && (e.payload.ids as string[]).includes(connectorId)), 5_000);
    const [row] = await viewer.call<Array<{ id: string; risk?: unknown }>>('connectors.list');
    expect(row).toMatchObject({ id: connectorId, risk: NEW_RISK });

    // A worker process takes the owed rescore: the stored hosts scored under the new settings, as of their facts.
    const worker = startWorker('w-risk');
    const cycle = await until(
      'the rescored cycle',
      async () => (await owner.query<{ id: string; status: string }>("SELECT id::text, status FROM edr.cycles WHERE connector_id = $1 AND kind = 'rescore' AND status = 'completed'", [connectorId])).rows[0],
      60_000,
    ).catch((e: unknown) => Promise.reject(new Error(`${String(e)}\nworker said:\n${worker.stderr()}`)));
    const after = await until('the claim released', async () => {
      const c = await claimRow();
      return c.last_cycle_id === cycle.id && c;
    });
    expect(after).toMatchObject({ rescored: after.requests, last_status: 'completed', due: before.due });

    const config = compileRiskConfig(tenantRiskConfigOrThrow(NEW_RISK));
    const expected = Object.fromEntries(hosts.map((s) => [s.host.hostId, scoreHost(s.host, config, FINISHED).score]));
    const oldScores = Object.fromEntries(hosts.map((s) => [s.host.hostId, s.score]));
    expect(expected).not.toEqual(oldScores);
    for (const c of [h, viewer]) {
      const snap = await c.call<ZtaSnapshot>('zta.snapshot', { connectorId });
      expect(snap.connectors[0]).toMatchObject({ kind: 'rescore', cycleId: Number(cycle.id) });
      expect(Object.fromEntries(snap.rows.hostId.map((id, i) => [id, snap.rows.score[i]]))).toEqual(expected);
    }
    // The viewer's dashboard was told of the rescored cycle.
    expect(pushed(viewer, from).some((e) => e.event === 'edr.progress' && e.payload.connectorId === connectorId && e.payload.cycleId === Number(cycle.id) && e.payload.phase === 'completed')).toBe(true);

    // With a live worker, the next Save says one rescores now; served in turn.
    const again = await h.call<{ rescore?: { workersAlive: number } }>('zta.applyRisk', { connectorId, risk: { weights: { critical: 20, operational: 80 } } });
    expect(again.rescore?.workersAlive).toBe(1);
    await until('the second rescore served', async () => {
      const c = await claimRow();
      return c.rescored === c.requests && c.last_cycle_id !== cycle.id;
    }, 60_000);
    expect((await claimRow()).due).toBe(before.due);
    worker.child.kill('SIGTERM');
    await new Promise((resolve) => worker.child.once('exit', resolve));
  }, 120_000);
});
