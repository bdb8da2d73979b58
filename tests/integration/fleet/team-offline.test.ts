/**
 * A joined console that loses its team's database (issue 25.1, last sentence; C-90): the private
 * cluster stopped with pg_ctl under it, the team's read channels answer what they last read (the
 * same answer, no error), a request never read answers `team.unreachable`, `team.health` says
 * unreachable with the time of the last read (one `team.health` event, not one per call), the
 * Fleet card says the database cannot be reached and shows its last read; nothing crashes. With
 * the cluster started again, `team.health` turns reachable by itself (an event) and the channels
 * answer fresh data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_ROLES } from '../../../electron/app/team';
import { openPgActivityStore } from '../../../electron/store/activity-pg';
import type { PgPool } from '../../../electron/store/postgres';
import type { FleetHealth, TeamHealth } from '../../../shared/model/fleet-health';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { usePostgres } from '../../support/postgres';
import { initTeamDatabase } from '../../support/team-database';
import { until } from '../../support/until';

const pg = usePostgres();
let dir!: string;
let owner!: PgPool;
let dbName = '';
let h: AppHarness | undefined;

const entry = (what: string, at: string) => ({ at, user: 'dave@desk-3', nodeUser: null, action: 'alarms.clear', what, objectKind: 'alarm', objectId: '1', objectName: 'vni-0/1', connection: 'Lab', outcome: 'ok' as const, detail: '' });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-team-offline-'));
  const db = await initTeamDatabase(pg, 'offline', dir);
  owner = db.pool;
  dbName = db.name;
  await owner.query(`CREATE ROLE erin LOGIN IN ROLE ${TEAM_ROLES.console}`);
  await (await openPgActivityStore(owner)).record(entry('Cleared alarms', '2026-11-29T12:00:00.000Z'));
}, 120_000);

afterAll(async () => {
  await h?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

const healthEvents = () => h!.pushed.filter((p) => p.includes('"event":"team.health"')).map((p) => (JSON.parse(p) as { payload: TeamHealth }).payload);

describe('a joined console without its database', () => {
  it('answers what it last read, says so once, and reads fresh data when the database is back', async () => {
    h = await startAppHarness();
    await h.call('team.join', { host: '127.0.0.1', port: pg.cluster().port, database: dbName, user: 'erin', tls: { mode: 'off' } });
    const activity = await h.call<{ rows: Array<{ what: string }> }>('activity.list', { limit: 50 });
    expect(activity.rows.map((r) => r.what)).toContain('Cleared alarms');
    const overview = await h.call('overview.get', {});
    const snapshot = await h.call('zta.snapshot');
    const card = await h.call<FleetHealth>('overview.fleet');
    expect(card).toMatchObject({ state: 'joined', database: { reachable: true }, read: { workers: [], connectors: 0 } });
    const readAsOf = card.state === 'joined' ? card.read!.asOf : '';
    const before = await h.call<TeamHealth>('team.health');
    expect(before).toMatchObject({ joined: true, reachable: true, since: null, message: null });
    expect(before.lastReadAt).toEqual(expect.any(String));

    await pg.cluster().pause();
    const stoppedAt = Date.now();
    // The same answers as last read, several times over: no error.
    for (let i = 0; i < 3; i += 1) {
      expect(await h.call('activity.list', { limit: 50 })).toEqual(activity);
      expect(await h.call('overview.get', {})).toEqual(overview);
      expect(await h.call('zta.snapshot')).toEqual(snapshot);
    }
    const away = await h.call<TeamHealth>('team.health');
    expect(away).toMatchObject({ joined: true, reachable: false, message: expect.any(String) });
    expect(Date.parse(away.since!)).toBeGreaterThanOrEqual(stoppedAt - 1000);
    expect(Date.parse(away.lastReadAt!)).toBeLessThan(stoppedAt);
    // One event for the outage, not one per failed call.
    expect(healthEvents().filter((e) => !e.reachable)).toHaveLength(1);
    // A request never read before: the typed error the window maps to its banner.
    const never = await h.callRaw('activity.list', { limit: 7 });
    expect(never.error).toMatchObject({ code: 'team.unreachable' });
    // The Fleet card: the database cannot be reached; its last read, with its time.
    const offCard = await h.call<FleetHealth>('overview.fleet');
    expect(offCard).toMatchObject({ state: 'joined', database: { reachable: false }, read: { asOf: readAsOf } });

    await pg.cluster().resume();
    // Back by itself (the console retries SELECT 1), said once.
    await until('team.health reachable again', async () => healthEvents().some((e) => e.reachable) || (await new Promise((r) => setTimeout(r, 200)), false), 20_000);
    expect(await h.call<TeamHealth>('team.health')).toMatchObject({ reachable: true, since: null });
    // Fresh answers: what was written meanwhile shows.
    await (await openPgActivityStore(pg.pool(dbName, 1))).record(entry('Acknowledged alarms', '2026-11-29T13:00:00.000Z'));
    const fresh = await h.call<{ rows: Array<{ what: string }> }>('activity.list', { limit: 50 });
    expect(fresh.rows.map((r) => r.what)).toContain('Acknowledged alarms');
    const backCard = await h.call<FleetHealth>('overview.fleet');
    expect(backCard).toMatchObject({ state: 'joined', database: { reachable: true, error: null } });
    expect(backCard.state === 'joined' && Date.parse(backCard.read!.asOf)).toBeGreaterThan(Date.parse(readAsOf));
  }, 120_000);
});
