/**
 * Settings → Team (issue 25.1) on a private PostgreSQL cluster set up by team init, with users that
 * sign in by password (scram-sha-256): the app joins as a console and as an admin; once joined its
 * ZTA, alarms and activity channels answer from the team's stores and its Connectors page from the
 * fleet tables; a console cannot write connectors nor read a sealed secret, an admin writes them
 * sealed; after leaving, the desk's own stores answer again, as they were. A wrong password, a
 * database without the schema, a user in no team role and an untrusted certificate each give an
 * error that says what to fix.
 */
import { X509Certificate } from 'node:crypto';
import { appendFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_ROLES } from '../../../electron/app/team';
import { FleetConnectors } from '../../../electron/edr/fleet/fleet-connectors';
import { openPgEdrStore } from '../../../electron/edr/store/edr-pg';
import { openPgAlarmStore } from '../../../electron/alarms/store/pg-alarm-store';
import { openPgActivityStore } from '../../../electron/store/activity-pg';
import { cliConnectorId } from '../../../electron/edr/connector-ids';
import { openPostgres, type PgPool } from '../../../electron/store/postgres';
import type { AlarmItem } from '../../../shared/model/alarms';
import type { ProfileView } from '../../../shared/model/profile';
import type { TeamView } from '../../../shared/model/team';
import { makeScoredHosts, teamFalconEntry } from '../../support/edr-fixtures';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { usePostgres } from '../../support/postgres';
import { teamDatabase } from '../../support/team-database';
import { TEAM_IDLE_MS } from '../../../electron/store/team-postgres';
import { until } from '../../support/until';

const pg = usePostgres();
let dir: string;
let owner: PgPool;
let dbName: string;
let port: number;
let connectorId: string;
const pools: PgPool[] = [];
const harnesses: AppHarness[] = [];

const T = Date.UTC(2026, 10, 29, 12);
const NODE = { host: '127.0.0.1', basicPort: 19_182 };

function alarm(object: string): AlarmItem {
  return {
    head: { device: 'dev-1', deviceName: 'dev-1', org: 'Contoso', object, type: 'interface-down', specificProblem: 'link-down', severity: 'major', cleared: false, text: 'down', lastChangeMs: T },
    changes: [{ eventMs: T, severity: 'major', text: 'down' }],
    handlings: [],
    messageId: null,
  };
}

const falcon = (patch: Record<string, unknown> = {}) => teamFalconEntry({ name: 'Team Falcon', ...patch });

const input = (user: string, password: string | undefined, patch: Record<string, unknown> = {}) => ({ host: '127.0.0.1', port, database: dbName, user, ...(password !== undefined ? { password } : {}), tls: { mode: 'off' }, ...patch });

async function app(): Promise<AppHarness> {
  const h = await startAppHarness();
  harnesses.push(h);
  return h;
}

/** The desk's own data: a connection (whose alarms the team's collectors store under its node) and a cycle the CLI stored. */
async function deskData(h: AppHarness): Promise<{ profile: ProfileView; localConnector: string }> {
  const profile = await h.call<ProfileView>('profiles.save', { name: 'Lab node', host: NODE.host, basicPort: NODE.basicPort, oauthPort: 19_183, authMode: 'basic', username: 'op', tls: { mode: 'system' } });
  const localConnector = cliConnectorId('defender', '11111111-2222-3333-4444-555555555555');
  const store = h.app.edr.store;
  const id = await store.beginCycle(localConnector, 'defender', '11111111-2222-3333-4444-555555555555', new Date(T));
  await store.stageScores(id, localConnector, makeScoredHosts(3, { cycleSalt: 7 }));
  await store.commitCycle(id, new Date(T + 1000));
  return { profile, localConnector };
}

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-team-join-'));
  // These users sign in by password; the tests' owner keeps the cluster's trust.
  const team = await teamDatabase(pg, 'teamjoin', [['w1', TEAM_ROLES.worker], ['alice', TEAM_ROLES.console], ['bob', TEAM_ROLES.admin], ['mallory', null]], dir);
  owner = team.owner;
  dbName = team.name;
  port = team.port;

  // The fleet's data: a connector an admin registered, a cycle a worker stored, alarms a collector stored, one activity entry.
  const bob = team.login('bob');
  const w1 = team.login('w1');
  const [registered] = await new FleetConnectors(bob).registerBulk({ version: 1, connectors: [falcon()] });
  connectorId = registered!.id!;
  const edr = await openPgEdrStore(w1);
  const cycle = await edr.beginCycle(connectorId, 'falcon', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', new Date(T));
  await edr.stageScores(cycle, connectorId, makeScoredHosts(5, { cycleSalt: cycle, tenantId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90' }));
  await edr.commitCycle(cycle, new Date(T + 60_000));
  await edr.finishCycle(cycle, 'completed', { at: new Date(T + 60_000), hosts: 5 });
  await w1.query("UPDATE fleet_claims SET worker = 'host-a:1', claimed_at = now(), lease_until = now() + interval '1 minute', last_worker = 'host-a:1', last_cycle_id = $2, last_status = 'failed', last_finished_at = now(), last_error = 'token refused' WHERE connector_id = $1", [connectorId, cycle]);
  const alarms = await openPgAlarmStore(w1);
  await alarms.ingest(`node:${NODE.host}:${NODE.basicPort}`, [alarm('vni-0/1'), alarm('vni-0/2')], { storedMs: T + 1000 });
  await (await openPgActivityStore(owner)).record({ at: new Date(T).toISOString(), user: 'carol@desk-2', nodeUser: null, action: 'alarms.clear', what: 'Cleared alarms', objectKind: 'alarm', objectId: '1', objectName: 'vni-0/1', connection: 'Lab node', outcome: 'ok', detail: 'from another console' });
}, 120_000);

afterAll(async () => {
  await Promise.all(harnesses.map((h) => h.close()));
  await Promise.all(pools.map((p) => p.end()));
  rmSync(dir, { recursive: true, force: true });
});

describe('joining a team', () => {
  it('as a console: the views read the team’s stores; connectors are read-only, with why; leaving shows the desk’s data again', async () => {
    const h = await app();
    const { profile, localConnector } = await deskData(h);
    const deskSnapshot = await h.call<{ connectors: Array<{ connectorId: string }> }>('zta.snapshot');
    expect(deskSnapshot.connectors.map((c) => c.connectorId)).toEqual([localConnector]);
    expect((await h.call<{ total: number }>('alarms.list', { profileId: profile.id, filter: { cleared: 'all' }, offset: 0, limit: 50 })).total).toBe(0);

    const check = await h.call<{ role: string; mayWriteConnectors: boolean; stores: Array<{ store: string; version: number; expected: number }> }>('team.test', input('alice', 'alice-pw'));
    expect(check).toMatchObject({ role: 'northbound_console', mayWriteConnectors: false });
    expect(check.stores.every((s) => s.version === s.expected && s.version > 0)).toBe(true);
    // A test saves nothing.
    expect(await h.call<TeamView>('team.get')).toMatchObject({ configured: false, joined: false });

    const joined = await h.call<TeamView>('team.join', input('alice', 'alice-pw'));
    expect(joined).toMatchObject({ joined: true, role: 'northbound_console', hasPassword: true, mayWriteConnectors: false });
    expect(joined.readOnlyReason).toMatch(/northbound_console may not change connectors/);
    expect(h.pushed.some((p) => p.includes('"team.changed"') && p.includes('"joined":true'))).toBe(true);
    // Its connections are opened before the views read, and wait for the next read (C-103).
    const teamPool = h.app.team.current().o.pool;
    await until('the team pool opened its connections', () => teamPool.totalCount >= 4);
    expect(teamPool.options.idleTimeoutMillis).toBe(TEAM_IDLE_MS);
    // The password is in the vault, not in the settings, and never in an answer.
    expect((await h.files()).some((f) => f.text.includes('alice-pw'))).toBe(false);
    expect(h.answers.some((a) => a.includes('alice-pw'))).toBe(false);

    const snapshot = await h.call<{ connectors: Array<{ connectorId: string; name: string; hosts: number }> }>('zta.snapshot');
    expect(snapshot.connectors.map((c) => [c.connectorId, c.name, c.hosts])).toEqual([[connectorId, 'Team Falcon', 5]]);
    const page = await h.call<{ total: number; rows: Array<{ object: string }> }>('alarms.list', { profileId: profile.id, filter: { cleared: 'all' }, offset: 0, limit: 50 });
    expect(page.rows.map((r) => r.object).sort()).toEqual(['vni-0/1', 'vni-0/2']);
    // The join is recorded once it is answered (the router's record of a write), in the team's log.
    const activity = await until('the join in the team’s log', async () => {
      const a = await h.call<{ rows: Array<{ what: string; user: string }> }>('activity.list', { limit: 50 });
      return a.rows.length === 2 ? a : undefined;
    });
    expect(activity.rows.map((r) => r.what)).toEqual(['Joined a team', 'Cleared alarms']);
    type Ov = { connectors: Array<{ connectorId: string; name: string }>; risk: { state: string; scored?: number }; alarms: { state: string } };
    const teamOverview = await h.call<Ov>('overview.get', { profileId: profile.id });
    expect(teamOverview.connectors.map((c) => c.name)).toEqual(['Team Falcon']);
    expect(teamOverview.risk).toMatchObject({ state: 'known', scored: 1 });
    expect(teamOverview.alarms.state).toBe('known');

    const [row] = await h.call<Array<{ id: string; name: string; hasClientSecret: boolean; running: boolean; fleet: Record<string, unknown> }>>('connectors.list');
    expect(row).toMatchObject({ id: connectorId, name: 'Team Falcon', hasClientSecret: true, running: true, fleet: { worker: 'host-a:1', leaseLapsed: false, lastStatus: 'failed', lastError: 'token refused', lastWorker: 'host-a:1' } });
    expect(row!.fleet.leaseUntil).toEqual(expect.any(String));
    expect(row).not.toHaveProperty('nextCycleAt');
    // Released by its worker: the next poll is the claim's due time, on the Connectors page and the Overview.
    await owner.query("UPDATE fleet_claims SET worker = NULL, lease_until = NULL, due_at = '2026-12-01T09:30:00Z' WHERE connector_id = $1", [connectorId]);
    const [idle] = await h.call<Array<{ running: boolean; nextCycleAt?: string }>>('connectors.list');
    expect(idle).toMatchObject({ running: false, nextCycleAt: '2026-12-01T09:30:00.000Z' });
    const [tile] = (await h.call<{ connectors: Array<{ running: boolean; nextCycleAt: string | null }> }>('overview.get', { profileId: profile.id })).connectors;
    expect(tile).toMatchObject({ running: false, nextCycleAt: '2026-12-01T09:30:00.000Z' });

    const refused = await h.callRaw('connectors.save', falcon({ id: connectorId, name: 'Renamed', clientSecret: undefined }));
    expect(refused.error).toMatchObject({ code: 'request.forbidden', message: 'Your database role northbound_console may not change connectors.' });
    expect((await h.callRaw('connectors.setEnabled', { connectorId, enabled: false })).error?.message).toMatch(/northbound_console may not change connectors/);
    expect((await h.callRaw('connectors.delete', { connectorId })).error?.message).toMatch(/northbound_console may not change connectors/);
    expect((await h.callRaw('connectors.test', { connectorId })).error?.message).toMatch(/sealed to the workers/);
    expect((await h.callRaw('connectors.pollNow', { connectorId })).error?.code).toBe('request.forbidden');
    // Nor may its database user read a sealed secret.
    const alice = openPostgres({ url: `postgres://alice@127.0.0.1:${port}/${dbName}`, password: 'alice-pw', max: 1 });
    pools.push(alice);
    await expect(alice.query('SELECT sealed FROM fleet_secrets')).rejects.toThrow(/permission denied/);
    expect((await owner.query<{ name: string }>("SELECT config->>'name' AS name FROM fleet_connectors")).rows).toEqual([{ name: 'Team Falcon' }]);

    const left = await h.call<TeamView>('team.leave');
    expect(left).toMatchObject({ configured: true, joined: false, role: null, hasPassword: true });
    expect((await h.call<{ connectors: Array<{ connectorId: string; hosts: number }> }>('zta.snapshot')).connectors.map((c) => [c.connectorId, c.hosts])).toEqual([[localConnector, 3]]);
    expect((await h.call<{ total: number }>('alarms.list', { profileId: profile.id, filter: { cleared: 'all' }, offset: 0, limit: 50 })).total).toBe(0);
    const deskLog = await h.call<{ rows: Array<{ what: string }> }>('activity.list', { limit: 50 });
    expect(deskLog.rows.map((r) => r.what)).toEqual(['Left the team', 'Added a connection']);
    expect(await h.call('connectors.list')).toEqual([]);
    const deskOverview = await h.call<Ov>('overview.get', { profileId: profile.id });
    expect(deskOverview.connectors.map((c) => c.connectorId)).toEqual([localConnector]);
    expect(deskOverview.alarms.state).toBe('never');
  });

  it('as an admin: connectors are written to the team, the secret sealed to the workers and never readable', async () => {
    const h = await app();
    const joined = await h.call<TeamView>('team.join', input('bob', 'bob-pw'));
    expect(joined).toMatchObject({ joined: true, role: 'northbound_admin', mayWriteConnectors: true, readOnlyReason: null });
    const saved = await h.call<{ id: string; hasClientSecret: boolean }>('connectors.save', falcon({ name: 'Second Falcon', tenantId: 'b1b2c3d4e5f60718293a4b5c6d7e8f90', clientId: 'fedcba9876543210fedcba9876543210', clientSecret: 'second-secret' }));
    expect(saved.hasClientSecret).toBe(true);
    const rows = (await owner.query<{ id: string; sealed: string }>('SELECT s.connector_id AS id, s.sealed FROM fleet_secrets s WHERE connector_id = $1', [saved.id])).rows;
    expect(rows).toHaveLength(1);
    expect(rows[0]!.sealed).not.toContain('second-secret');
    expect(Buffer.from(rows[0]!.sealed, 'base64').toString('latin1')).not.toContain('second-secret');
    const bob = openPostgres({ url: `postgres://bob@127.0.0.1:${port}/${dbName}`, password: 'bob-pw', max: 1 });
    pools.push(bob);
    await expect(bob.query('SELECT sealed FROM fleet_secrets')).rejects.toThrow(/permission denied/);
    // And a worker's key opens it.
    const { readWorkerKeyFile } = await import('../../../electron/store/sealed-box');
    const fleet = new FleetConnectors(owner);
    const stored = (await fleet.get(saved.id))!;
    expect(await fleet.openSecret(stored, await readWorkerKeyFile(path.join(dir, 'worker.key')))).toBe('second-secret');

    expect(await h.call('connectors.setEnabled', { connectorId: saved.id, enabled: false })).toMatchObject({ enabled: false });
    expect((await fleet.get(saved.id))!.enabled).toBe(false);
    expect(await h.call('connectors.delete', { connectorId: saved.id })).toEqual({ deleted: true });
    expect(await fleet.get(saved.id)).toBeUndefined();
    expect((await h.call<Array<{ id: string }>>('connectors.list')).map((c) => c.id)).toEqual([connectorId]);
    await h.call('team.leave');
  });

  it('joins again at the next start, and the desk’s own connectors are not scheduled until it leaves', async () => {
    const first = await startAppHarness({ dataDir: mkdtempSync(path.join(os.tmpdir(), 'nb-team-rejoin-')) });
    const local = await first.call<{ id: string }>('connectors.save', falcon({ name: 'Desk Falcon' }));
    expect(first.app.edr.scheduler.status(local.id).nextCycleAt).toEqual(expect.any(String));
    await first.call('team.join', input('alice', 'alice-pw'));
    expect(first.app.edr.scheduler.status(local.id).nextCycleAt).toBeUndefined();
    await first.close();
    const again = await startAppHarness({ dataDir: first.dataDir });
    try {
      expect(await again.call<TeamView>('team.get')).toMatchObject({ joined: true, hasPassword: true });
      expect(again.app.edr.scheduler.status(local.id).nextCycleAt).toBeUndefined();
      await until('the team’s snapshot', async () => (await again.callRaw('zta.snapshot')).ok);
      expect((await again.call<{ connectors: Array<{ connectorId: string }> }>('zta.snapshot')).connectors.map((c) => c.connectorId)).toEqual([connectorId]);
      await again.call('team.leave');
      expect(again.app.edr.scheduler.status(local.id).nextCycleAt).toEqual(expect.any(String));
      expect((await again.call<Array<{ id: string; name: string }>>('connectors.list')).map((c) => c.name)).toEqual(['Desk Falcon']);
    } finally {
      // The app first (its scheduler has the desk's connector due), then its folder.
      await again.close();
      rmSync(first.dataDir, { recursive: true, force: true });
    }
  });
});

describe('what a join refuses, and why', () => {
  it('a wrong password', async () => {
    const h = await app();
    const r = await h.callRaw('team.join', input('alice', 'not-it'));
    expect(r.error).toMatchObject({ code: 'team.auth', message: 'The database refused the password of user alice.' });
    expect(r.error!.hint).toMatch(/Enter the password again/);
    expect(await h.call<TeamView>('team.get')).toMatchObject({ configured: false, joined: false });
  });

  it('a user in neither team role', async () => {
    const h = await app();
    const r = await h.callRaw('team.test', input('mallory', 'mallory-pw'));
    expect(r.error).toMatchObject({ code: 'team.role', message: 'The database user mallory is in neither northbound_console nor northbound_admin.' });
    expect(r.error!.hint).toMatch(/GRANT northbound_console TO mallory/);
  });

  it('a database without the schema', async () => {
    const h = await app();
    const bare = await pg.freshDatabase('bare');
    const r = await h.callRaw('team.test', { ...input('postgres', undefined), database: bare.name });
    expect(r.error).toMatchObject({ code: 'team.schema', message: `The database ${bare.name} has no Northbound schema.` });
    expect(r.error!.hint).toMatch(/team init/);
  });

  it('no TLS to another machine is refused before anything is sent', async () => {
    const h = await app();
    const r = await h.callRaw('team.test', input('alice', 'alice-pw', { host: 'db.example' }));
    expect(r.error?.message).toMatch(/unencrypted/);
  });

  it('a server whose certificate the chosen CA did not sign; the right CA, or its certificate pinned after comparing the fingerprint', async () => {
    // The server gets a certificate of its own CA; the console trusts another one.
    const { generate } = await import('selfsigned');
    const options = (): Parameters<typeof generate>[1] => ({
      keyType: 'ec' as const,
      curve: 'P-256' as const,
      algorithm: 'sha256',
      notBeforeDate: new Date(Date.now() - 3_600_000),
      notAfterDate: new Date(Date.now() + 86_400_000),
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, critical: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
      ],
    });
    const serverCert = await generate([{ name: 'commonName', value: 'team-db.local' }], options());
    const otherCa = await generate([{ name: 'commonName', value: 'another.local' }], options());
    const data = path.join(pg.cluster().dir, 'data');
    writeFileSync(path.join(data, 'server.crt'), serverCert.cert);
    writeFileSync(path.join(data, 'server.key'), serverCert.private, { mode: 0o600 });
    const { execFileSync } = await import('node:child_process');
    if (process.getuid?.() === 0) execFileSync('chown', ['postgres:postgres', path.join(data, 'server.crt'), path.join(data, 'server.key')]);
    await owner.query('ALTER SYSTEM SET ssl = on');
    await owner.query('SELECT pg_reload_conf()');
    const tlsProbe = openPostgres({ url: `postgres://postgres@127.0.0.1:${port}/${dbName}?sslmode=verify-ca`, caFile: writeCa(serverCert.cert), max: 1 });
    pools.push(tlsProbe);
    await until('the server speaks TLS', () => tlsProbe.query('SELECT 1').then(() => true, () => false));

    const h = await app();
    const wrong = await h.callRaw('team.test', input('alice', 'alice-pw', { tls: { mode: 'custom-ca', caName: 'other.pem', caPem: otherCa.cert } }));
    expect(wrong.error?.code).toBe('tls.untrusted');
    expect(wrong.error?.message).toMatch(/127\.0\.0\.1:\d+ is not trusted/);
    expect(wrong.error?.hint).toMatch(/CA file that signed the database server’s certificate/);
    // The right one passes, and the join keeps it.
    const right = await h.call<TeamView>('team.join', input('alice', 'alice-pw', { tls: { mode: 'custom-ca', caName: 'server.pem', caPem: serverCert.cert } }));
    expect(right).toMatchObject({ joined: true, tls: { mode: 'custom-ca', caName: 'server.pem' }, hasPassword: true });
    // Another trust drops the stored password: it was entered for this one.
    await h.call('team.leave');
    const moved = await h.callRaw('team.test', input('alice', undefined, { tls: { mode: 'custom-ca', caName: 'other.pem', caPem: otherCa.cert } }));
    expect(moved.ok).toBe(false);
    const again = await h.callRaw('team.test', input('alice', undefined, { tls: { mode: 'custom-ca' } }));
    expect(again.ok, JSON.stringify(again.error)).toBe(true);

    // Or the server's own certificate, pinned after comparing its fingerprint (read after PostgreSQL's SSLRequest).
    const endpoint = { host: '127.0.0.1', port, database: dbName, user: 'alice' };
    expect((await h.callRaw('team.test', input('alice', 'alice-pw', { tls: { mode: 'pinned' } }))).error).toMatchObject({ code: 'tls.untrusted', details: { reason: 'not-pinned' } });
    const seen = await h.call<{ fingerprint256: string; selfSigned: boolean }>('team.inspect', { host: '127.0.0.1', port });
    expect(seen.fingerprint256).toBe(new X509Certificate(serverCert.cert).fingerprint256);
    const other = new X509Certificate(otherCa.cert).fingerprint256;
    expect((await h.callRaw('team.trust', { ...endpoint, fingerprint256: other })).error).toMatchObject({ code: 'tls.pin_mismatch' });
    expect(await h.call<TeamView>('team.trust', { ...endpoint, fingerprint256: seen.fingerprint256.toLowerCase() })).toMatchObject({ joined: false, tls: { mode: 'pinned', fingerprint256: seen.fingerprint256 }, hasPassword: false });
    const pinned = await h.call<TeamView>('team.join', input('alice', 'alice-pw', { tls: { mode: 'pinned' } }));
    expect(pinned).toMatchObject({ joined: true, role: 'northbound_console', tls: { mode: 'pinned', fingerprint256: seen.fingerprint256 } });
    expect((await h.callRaw('team.trust', { ...endpoint, fingerprint256: seen.fingerprint256 })).error?.message).toMatch(/not changed while joined/);
    await h.call('team.leave');
  });
});

function writeCa(pem: string): string {
  const file = path.join(dir, `ca-${Math.random().toString(36).slice(2)}.pem`);
  appendFileSync(file, pem);
  return file;
}
