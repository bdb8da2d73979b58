/**
 * Issue 20, items 2 and 4 from the node's side: a node whose alarm list carries times far in the
 * future or changes the console cannot read (a replay node over real HTTPS), a node that caps its
 * pages at 100 whatever `limit` asks (the simulator's pageCap fault, MN-47), and a store an older
 * console filled with such times, read by `northbound alarms export`.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { backfill } from '../../../electron/alarms/backfill';
import { NodeAlarmApi } from '../../../electron/alarms/node-api';
import { AlarmSource } from '../../../electron/alarms/source';
import { createMemoryLogger } from '../../../electron/log';
import { MgmtClient } from '../../../electron/mgmt';
import { AlarmDb } from '../../../electron/alarms/store/alarms-db';
import { alarmDb, openAlarmStore } from '../../support/alarm-fixtures';
import { startReplayNode, type ReplayNode } from '../../support/replay-node';
import { until } from '../../support/until';
import { startAlarmWorld, storedIds, type AlarmWorld } from './world';

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nb-h20-'));
  cleanups.push(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

const DAY = 86_400_000;

/** A record of the node's list (MN-AL4) with epoch-ms times. */
const record = (object: string, last: number, changes: Array<Record<string, unknown>>) => ({
  device: 'dev-1',
  deviceName: 'dev-1',
  org: 'org',
  object,
  type: 'interface-down',
  'specific-problem': '',
  lastAlarmText: 'x',
  lastPerceivedSeverity: 'major',
  isCleared: false,
  lastStatusChangeTimeStamp: last,
  statusChanges: changes,
  alarmHandlings: [],
});

describe('a node whose alarm list is hostile or capped (issue 20)', () => {
  it('leaves out far-future times and unreadable changes from REST, counts them, and never moves the cursor past now plus the skew', async () => {
    const now = Date.now();
    const good = now - 60_000;
    const records = [
      record('vni-0/1', good, [{ eventTime: good, perceivedSeverity: 'major', alarmText: 'down' }]),
      record('vni-0/2', 1e300, [{ eventTime: 1e300, perceivedSeverity: 'major', alarmText: 'never' }]),
      record('vni-0/3', good + 1, [
        { eventTime: good - 5, perceivedSeverity: 'major', alarmText: 'down' },
        { eventTime: 9e15, perceivedSeverity: 'minor', alarmText: 'far' },
        { eventTime: good + 1, alarmText: 'no severity' },
      ]),
    ];
    const node: ReplayNode = await startReplayNode({
      routes: {
        '/mgmt/fault/alarms/page': (req) => {
          const after = Number(new URLSearchParams(req.query).get('last_change_after') ?? -1);
          const offset = Number(new URLSearchParams(req.query).get('offset') ?? 0);
          const selected = records.filter((r) => r.lastStatusChangeTimeStamp > after).sort((a, b) => a.lastStatusChangeTimeStamp - b.lastStatusChangeTimeStamp);
          return { body: { totalCount: selected.length, 'mgmt.fault-alarm-list': selected.slice(offset, offset + 500) } };
        },
      },
    });
    cleanups.push(() => node.close());
    const logger = createMemoryLogger('info');
    const client = new MgmtClient({
      profile: { id: 'replay', host: '127.0.0.1', basicPort: node.basicPort, oauthPort: node.basicPort, authMode: 'basic', username: 'operator', tls: { mode: 'custom-ca', caPem: node.certificatePem } },
      secrets: { getPassword: async () => 'pw', getClientSecret: async () => undefined },
      logger,
    });
    await client.signIn();
    cleanups.push(() => client.close());
    const store = openAlarmStore(path.join(await tempDir(), 'alarms.db'));
    cleanups.push(() => store.close());
    const source = await AlarmSource.open({ id: 'node-a', store, api: new NodeAlarmApi((m, p, b, o) => client.request(m, p, b, o)), pollIntervalMs: 50, logger });
    cleanups.push(() => source.stop());
    source.start();
    const polls = () => node.requests.filter((r) => r.path === '/mgmt/fault/alarms/page');
    // The fourth request has begun: three polls are done.
    await until('three polls', () => polls().length >= 4 && source.status().state === 'live', 15_000);
    await source.stop();
    // Every poll asked from a time near now: no 1e300, no 9e15.
    for (const r of polls()) expect(Number(new URLSearchParams(r.query).get('last_change_after'))).toBeLessThanOrEqual(now + DAY);
    expect((await store.sourceState('node-a')).cursorMs).toBe(good + 1);
    expect(alarmDb(store).db.prepare('SELECT event_ms FROM changes ORDER BY event_ms').all()).toEqual([{ event_ms: good - 5 }, { event_ms: good }]);
    // Counted and said, never dropped in silence: a record, a far-future change and a change without severity, each poll.
    expect(source.status().unreadable).toBeGreaterThanOrEqual(3 * 3);
    expect(logger.lines.some((l) => l.includes('alarm records the console cannot read were left out') && l.includes('outside the plausible window') && l.includes('perceivedSeverity'))).toBe(true);
  }, 30_000);

  it('backfills every change from a node that caps its pages at 100 whatever limit asks', async () => {
    const w: AlarmWorld = await startAlarmWorld();
    cleanups.push(() => w.close());
    w.sim.faults.pageCap = 100;
    w.sim.alarms.generator.step(400);
    const alarms = w.sim.alarms.model.count;
    expect(alarms).toBeGreaterThan(250); // three pages at least
    const r = await backfill(w.api, w.store, 'node-a', { fromMs: 0 });
    expect(r.pages).toBeGreaterThanOrEqual(3);
    expect(storedIds(w.file)).toMatchObject({ rows: 400, twice: [] });
    expect(await w.store.counts('node-a')).toEqual({ alarms, changes: 400 });
  }, 30_000);

  it('repairs a store an older console filled with far-future times; export, list and retention never throw', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'alarms.db');
    const now = Date.now();
    const head = (object: string, ms: number) => ({ device: 'd', deviceName: 'd', org: 'o', object, type: 't', specificProblem: '', severity: 'major' as const, cleared: false, text: 'x', lastChangeMs: ms });
    const old = new AlarmDb(file);
    old.ingest('node-a', [{ head: head('good', now - 1000), changes: [{ eventMs: now - 1000, severity: 'major', text: 'x' }], handlings: [], messageId: 1 }], { storedMs: now - 500 });
    // What the console stored before issue 20: a change at 9e15 on a real alarm, an alarm at 1e300, and its cursor.
    old.ingest('node-a', [{ head: head('good', 9e15), changes: [{ eventMs: 9e15, severity: 'critical', text: 'far' }], handlings: [], messageId: 2 }], { storedMs: now - 400, cursorMs: 9e15 });
    old.ingest('node-a', [{ head: head('never', 1e300), changes: [{ eventMs: 1e300, severity: 'major', text: 'never' }], handlings: [], messageId: 3 }], { storedMs: now - 300, cursorMs: 1e300 });
    old.close();

    const exported = spawn(process.execPath, [path.resolve('bin/northbound.mjs'), 'alarms', 'export', '--data-dir', dir, '--format', 'jsonl'], { env: { ...process.env, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent' } });
    let out = '';
    let err = '';
    exported.stdout.on('data', (d) => (out += String(d)));
    exported.stderr.on('data', (d) => (err += String(d)));
    expect(await new Promise((resolve) => exported.once('exit', resolve)), err).toBe(0);
    const lines = out.trim().split('\n').map((l) => JSON.parse(l) as { object: string; lastChangeAt: string; severity: string; changes: number });
    expect(lines).toEqual([expect.objectContaining({ object: 'good', lastChangeAt: new Date(now - 1000).toISOString(), severity: 'major', changes: 1 })]);

    const store = openAlarmStore(file);
    cleanups.push(() => store.close());
    // The cursor went back to when the first far-future row was stored: the next backfill reads again from there.
    expect((await store.sourceState('node-a')).cursorMs).toBe(now - 400);
    expect((await store.deadLetters('node-a')).map((d) => d.reason)).toEqual(expect.arrayContaining([expect.stringMatching(/^stored cursor .* moved back/), expect.stringMatching(/^stored status change time/), expect.stringMatching(/^stored alarm last change/)]));
    // A stored value the repair has not seen yet (written behind the store's back) still reads.
    alarmDb(store).db.prepare("UPDATE alarms SET last_change_ms = 9e15, handling_state = 'ack', handling_user = 'u', handling_ms = 1e300, handling_description = '' WHERE object = 'good'").run();
    expect((await store.list('node-a', { cleared: 'all' }, 0, 10)).rows[0]).toMatchObject({ lastChangeAt: '9000000000000000', handling: { at: '1e+300' } });
    // Retention (with the repair that runs with it) removes it.
    expect((await store.repairTimes(Date.now())).alarms).toBe(1);
    expect((await store.list('node-a', { cleared: 'all' }, 0, 10)).rows[0]).toMatchObject({ lastChangeAt: new Date(now - 1000).toISOString(), handling: null });
  }, 30_000);
});
