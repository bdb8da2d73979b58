/**
 * Issue 12 through the app's contract: a signed-in demo connection gets an alarm source (polling,
 * no broker configured), the alarm channels read the store, acknowledge and clear round-trip to the
 * simulated node, events reach the window, and the renderer's requests are checked.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AlarmDetail, AlarmPage, AlarmRate, AlarmSourceStatus, AlarmSummary } from '../../../shared/model/alarms';
import type { MgmtSimulator } from '@northbound/simulators/demo';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { until } from '../../support/until';

let h: AppHarness;
let sim: MgmtSimulator;
let profileId = '';

beforeAll(async () => {
  h = await startAppHarness({ openDemo: true, app: { demoEdr: false, alarms: { pollIntervalMs: 100, changedEveryMs: 20, statusEveryMs: 50, notifyEveryMs: 0 } } });
  sim = h.app.demo.simulator!;
  // Deterministic from here: no background changes.
  sim.alarms.generator.stop(true);
  profileId = h.app.demo.status().oauthProfileId!;
  await h.call('session.signIn', { profileId });
  // Alarms for every test to read, whichever runs first.
  sim.alarms.generator.step(40);
});
afterAll(async () => h?.close());

const page = (filter: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => h.call<AlarmPage>('alarms.list', { profileId, filter, ...extra });
/** The status changes the node holds (its message IDs count handlings too, which are no change). */
const nodeChanges = () => sim.alarms.model.all().reduce((n, a) => n + a.changes.length, 0);
/** What every test starts from: the source live and every status change the node holds stored. */
const caughtUp = () =>
  until('the source live with every change stored', async () => {
    const s = await h.call<AlarmSourceStatus>('alarms.status', { profileId });
    return s.state === 'live' && s.stored.changes === nodeChanges();
  });
beforeEach(caughtUp);

describe('alarms in the app', () => {
  it('start polling when the connection signs in and store every change the node made', async () => {
    const status = await until('the alarm source to be live', async () => {
      const s = await h.call<AlarmSourceStatus>('alarms.status', { profileId });
      return s.state === 'live' && s;
    });
    expect(status).toMatchObject({ source: 'poll', connected: true, broker: null });
    sim.alarms.generator.step(40);
    const changes = nodeChanges();
    await until('every change stored', async () => (await h.call<AlarmSourceStatus>('alarms.status', { profileId })).stored.changes === changes);
    const all = await page({ cleared: 'all' }, { limit: 1000 });
    expect(all.total).toBe(sim.alarms.model.count);
    // Newest change first.
    const times = all.rows.map((r) => Date.parse(r.lastChangeAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(h.pushed.some((p) => p.includes('"event":"alarms.changed"'))).toBe(true);
    expect(h.pushed.some((p) => p.includes('"event":"alarms.status"'))).toBe(true);
    // Every event kept to its schema (one outside is dropped and logged).
    expect(h.logs.filter((l) => l.includes('event payload outside its schema'))).toEqual([]);
  });

  it('filter by severity, organization, device, type and text, and window the list', async () => {
    const active = await page({}, { limit: 1000 });
    expect(active.rows.every((r) => !r.cleared)).toBe(true);
    const first = active.rows[0]!;
    for (const filter of [{ severity: [first.severity] }, { org: first.org }, { device: first.deviceName }, { type: first.type }, { text: first.object }]) {
      const rows = (await page(filter, { limit: 1000 })).rows;
      expect(rows.length, JSON.stringify(filter)).toBeGreaterThan(0);
      expect(rows.map((r) => r.id), JSON.stringify(filter)).toContain(first.id);
    }
    expect((await page({ severity: ['critical'] }, { limit: 1000 })).rows.every((r) => r.severity === 'critical')).toBe(true);
    const window = await page({ cleared: 'all' }, { offset: 2, limit: 3 });
    const whole = await page({ cleared: 'all' }, { limit: 1000 });
    expect(window.rows.map((r) => r.id)).toEqual(whole.rows.slice(2, 5).map((r) => r.id));
    expect(window.total).toBe(whole.total);
  });

  it('acknowledge with a note on the node, store its answer and show it in the details', async () => {
    const target = (await page({}, { limit: 1 })).rows[0]!;
    const res = await h.call<{ updated: number; missing: number[] }>('alarms.acknowledge', { profileId, ids: [target.id], note: 'Looking into it' });
    expect(res).toEqual({ updated: 1, missing: [] });
    const onNode = sim.alarms.model.get({ deviceName: target.deviceName, object: target.object, type: target.type, specificProblem: target.specificProblem })!;
    expect(onNode.handlings.at(-1)).toMatchObject({ state: 'ack', description: 'Looking into it', user: 'admin' });
    const detail = await h.call<AlarmDetail>('alarms.get', { profileId, id: target.id });
    expect(detail.handling).toMatchObject({ state: 'ack', user: 'admin', description: 'Looking into it' });
    expect(detail.handlings.at(-1)).toMatchObject({ state: 'ack', description: 'Looking into it' });
    expect(detail.statusChanges.length).toBe(onNode.changes.length);
  });

  it('filter to alarms nobody handled, and to those that changed after a page was read', async () => {
    // One active alarm handled already, so the filter has one to leave out.
    const handled = (await page({ unacked: true }, { limit: 1000 })).rows.at(-1)!;
    await h.call('alarms.acknowledge', { profileId, ids: [handled.id], note: 'handled before' });
    const before = await page({}, { limit: 1000 });
    const unacked = await page({ unacked: true }, { limit: 1000 });
    expect(unacked.rows.every((r) => r.handling === null || r.handling.state === 'none')).toBe(true);
    expect(unacked.total).toBe(before.rows.filter((r) => r.handling === null || r.handling.state === 'none').length);
    expect(unacked.total).toBeLessThan(before.total);
    // Nothing changed after the page was read; then two alarms do (a handling, a new change).
    expect((await page({ afterSeq: before.headSeq })).total).toBe(0);
    const a = unacked.rows[0];
    await h.call('alarms.acknowledge', { profileId, ids: [a!.id], note: 'seen' });
    const changed = sim.alarms.generator.step(1)[0]!;
    const isChanged = (r: { deviceName: string; object: string; type: string }) => r.deviceName === changed.alarm.deviceName && r.object === changed.alarm.object && r.type === changed.alarm.type;
    const after = await until('the new change stored', async () => {
      const p = await page({ afterSeq: before.headSeq, cleared: 'all' }, { limit: 1000 });
      return p.rows.some(isChanged) && p;
    });
    expect(after.rows.map((r) => r.id)).toContain(a!.id);
    expect(after.total).toBe(after.rows.length);
    // An alarm neither handled nor changed (the generator picks the changed one at random: it may be any other).
    const untouched = unacked.rows.find((r) => r.id !== a!.id && !isChanged(r));
    expect(untouched).toBeDefined();
    expect(after.rows.map((r) => r.id)).not.toContain(untouched!.id);
    expect((await page({ unacked: true }, { limit: 1000 })).rows.map((r) => r.id)).not.toContain(a!.id);
  });

  it('clear a selection on the node and store the cleared state: the alarm keeps its text, the clear is a handling with who and why', async () => {
    const rows = (await page({}, { limit: 3 })).rows;
    const res = await h.call<{ updated: number }>('alarms.clear', { profileId, ids: rows.map((r) => r.id), note: 'Fixed on site' });
    expect(res.updated).toBe(rows.length);
    for (const r of rows) {
      const onNode = sim.alarms.model.get({ deviceName: r.deviceName, object: r.object, type: r.type, specificProblem: r.specificProblem })!;
      expect(onNode.changes.at(-1)).toMatchObject({ perceivedSeverity: 'cleared', alarmText: r.text });
      // The node names the signed-in operator (the demo's OAuth client acts for its user).
      const user = onNode.handlings.at(-1)?.user ?? '';
      expect(user).toMatch(/\S/);
      expect(onNode.handlings.at(-1)).toMatchObject({ state: 'closed', description: 'Fixed on site' });
      const d = await h.call<AlarmDetail>('alarms.get', { profileId, id: r.id });
      expect(d).toMatchObject({ cleared: true, severity: 'cleared', text: r.text, handling: { state: 'closed', user, description: 'Fixed on site' } });
      expect(d.handlings.at(-1)).toMatchObject({ state: 'closed', user, description: 'Fixed on site' });
    }
    const activeIds = (await page({}, { limit: 1000 })).rows.map((r) => r.id);
    for (const r of rows) expect(activeIds).not.toContain(r.id);
  });

  it('count active alarms per organization and severity as the node does, and changes per minute', async () => {
    const summary = await h.call<AlarmSummary>('alarms.summary', { profileId });
    for (const o of summary.organizations) {
      const counts = new Map<string, number>();
      for (const a of sim.alarms.model.all()) {
        const s = a.changes.at(-1)!.perceivedSeverity;
        if (a.org === o.org && s !== 'cleared') counts.set(s, (counts.get(s) ?? 0) + 1);
      }
      expect(o.critical, o.org).toBe(counts.get('critical') ?? 0);
      expect(o.major, o.org).toBe(counts.get('major') ?? 0);
      expect(o.total, o.org).toBe([...counts.values()].reduce((a, b) => a + b, 0));
    }
    const rate = await h.call<AlarmRate>('alarms.rate', { profileId, minutes: 5 });
    expect(rate.buckets).toHaveLength(5);
    const status = await h.call<AlarmSourceStatus>('alarms.status', { profileId });
    expect(rate.buckets.reduce((n, b) => n + b.count, 0)).toBe(status.stored.changes);
  });

  it('announce a new critical change to the window (browser mode has no notifications of its own) unless critical is muted', async () => {
    const device = sim.alarms.model.all()[0]!.deviceName;
    const from = h.pushed.length;
    const notifications = () => h.pushed.slice(from).filter((p) => p.includes('"event":"alarms.notification"')).map((p) => (JSON.parse(p) as { payload: { title: string; body: string; severity: string } }).payload);
    sim.alarms.model.change({ deviceName: device, object: 'cpu', type: 'high-cpu-utilization', specificProblem: 'notify-test' }, 'critical', 'CPU at 99 %');
    await until('a notification', () => notifications().length > 0);
    expect(notifications()[0]).toMatchObject({ severity: 'critical', title: `Critical alarm on ${device}`, body: expect.stringContaining('CPU at 99 %') });
    await h.call('settings.update', { alarmNotify: [] });
    try {
      const muted = h.pushed.length;
      sim.alarms.model.change({ deviceName: device, object: 'cpu', type: 'high-cpu-utilization', specificProblem: 'notify-test-2' }, 'critical', 'CPU at 100 %');
      await until('the muted change stored', async () => (await page({ text: 'CPU at 100' })).total === 1);
      expect(h.pushed.slice(muted).some((p) => p.includes('"event":"alarms.notification"'))).toBe(false);
    } finally {
      await h.call('settings.update', { alarmNotify: ['critical'] });
    }
  });

  it('refuse requests the window cannot make', async () => {
    const bad = [
      ['alarms.list', { profileId, limit: 5000 }],
      ['alarms.list', { profileId, filter: { severity: ['fatal'] } }],
      ['alarms.list', { profileId, filter: { path: '/etc' } }],
      ['alarms.list', { profileId, filter: { afterSeq: -1 } }],
      ['alarms.acknowledge', { profileId, ids: [] }],
      ['alarms.acknowledge', { profileId, ids: [1], note: 'x'.repeat(1001) }],
      ['alarms.acknowledge', { profileId, ids: [1], state: 'deleted' }],
      ['alarms.clear', { profileId, ids: Array.from({ length: 501 }, (_, i) => i + 1) }],
      ['alarms.rate', { profileId, minutes: 100_000 }],
      ['alarms.status', { profileId, amqpUrl: 'amqp://evil.example' }],
    ] as const;
    for (const [channel, req] of bad) {
      const res = await h.callRaw(channel, req);
      expect(res.ok, `${channel} ${JSON.stringify(req).slice(0, 80)}`).toBe(false);
      expect(res.error?.code).toBe('request.invalid');
    }
    const unknown = await h.callRaw('alarms.list', { profileId: 'no-such-connection' });
    expect(unknown.error?.code).toBe('not_found');
    const gone = await h.callRaw('alarms.get', { profileId, id: 999_999 });
    expect(gone.error?.code).toBe('not_found');
    const missing = await h.call<{ updated: number; missing: number[] }>('alarms.acknowledge', { profileId, ids: [999_999] });
    expect(missing).toEqual({ updated: 0, missing: [999_999] });
  });

  it('stop the source when the connection signs out; the stored alarms stay readable', async () => {
    await h.call('session.signOut', { profileId });
    try {
      const status = await until('the source to stop', async () => {
        const s = await h.call<AlarmSourceStatus>('alarms.status', { profileId });
        return s.source === 'none' && s;
      });
      expect(status.stored.changes).toBeGreaterThan(0);
      expect((await page({ cleared: 'all' })).total).toBeGreaterThan(0);
      const ack = await h.callRaw('alarms.acknowledge', { profileId, ids: [1] });
      expect(ack.error?.code).toBe('session.not_signed_in');
    } finally {
      // Signed in again for the tests that run after this one.
      await h.call('session.signIn', { profileId });
      await caughtUp();
    }
  });
});
