/**
 * The simulated node's fault management over HTTPS (issue 12; MN-AL1…MN-AL8): the paged list with
 * its filters, sort and paging, the per-organization summary, the types, handle and clear, and the
 * message each event becomes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alarmMessage, ALARM_LIST_KEY, ALARM_TYPES } from '@northbound/simulators/testing/alarms';
import { startHarness, type Harness } from './harness';

let h: Harness;
let admin: { username: string; password: string };
const get = (path: string) => h.call('basic', 'GET', path, { basic: admin });
const post = (path: string, json: unknown, who = admin) => h.call('basic', 'POST', path, { basic: who, json });

beforeAll(async () => {
  h = await startHarness({ alarms: { generator: { seed: 4, start: false } } });
  admin = h.user('admin');
  h.sim.alarms.generator.step(120);
});
afterAll(async () => h?.close());

type Rec = { deviceName: string; object: string; type: string; 'specific-problem': string; org: string; lastAlarmText: string; lastPerceivedSeverity: string; isCleared: boolean; lastStatusChangeTimeStamp: string; statusChanges: Array<{ eventTime: string; perceivedSeverity: string; alarmText: string }>; alarmHandlings: unknown[] };
const list = async (query: string): Promise<{ totalCount: number; records: Rec[] }> => {
  const r = await get(`/mgmt/fault/alarms/page?${query}`);
  expect(r.status, r.text).toBe(200);
  return { totalCount: r.json.totalCount as number, records: r.json[ALARM_LIST_KEY] as Rec[] };
};
const ms = (t: string) => Date.parse(t.replace('+0000', 'Z'));

describe('GET /mgmt/fault/alarms/page', () => {
  it('answers records in the node namespace with their history, newest change first by default', async () => {
    const { totalCount, records } = await list('offset=0&limit=500');
    expect(totalCount).toBe(h.sim.alarms.model.count);
    expect(records).toHaveLength(totalCount);
    const r = records[0]!;
    expect(Object.keys(r)).toEqual(['device', 'deviceName', 'org', 'object', 'type', 'specific-problem', 'lastAlarmText', 'lastPerceivedSeverity', 'isCleared', 'lastStatusChangeTimeStamp', 'statusChanges', 'alarmHandlings']);
    expect(r.lastStatusChangeTimeStamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\+0000$/);
    expect(r.statusChanges.at(-1)).toMatchObject({ eventTime: r.lastStatusChangeTimeStamp, perceivedSeverity: r.lastPerceivedSeverity });
    const times = records.map((x) => ms(x.lastStatusChangeTimeStamp));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('filters by organization, device, severities, cleared and last change (exclusive)', async () => {
    const all = (await list('limit=500')).records;
    const one = all[5]!;
    expect((await list(`limit=500&org=${encodeURIComponent(one.org)}`)).records.every((r) => r.org === one.org)).toBe(true);
    expect((await list(`limit=500&device_name=${one.deviceName}`)).records.every((r) => r.deviceName === one.deviceName)).toBe(true);
    const sev = await list('limit=500&last_perceived_severity=critical,major');
    expect(sev.records.every((r) => ['critical', 'major'].includes(r.lastPerceivedSeverity))).toBe(true);
    expect(sev.totalCount).toBe(all.filter((r) => ['critical', 'major'].includes(r.lastPerceivedSeverity)).length);
    expect((await list('limit=500&is_cleared=true')).records.every((r) => r.isCleared && r.lastPerceivedSeverity === 'cleared')).toBe(true);
    const t = ms(one.lastStatusChangeTimeStamp);
    const after = await list(`limit=500&last_change_after=${t}`);
    expect(after.records.every((r) => ms(r.lastStatusChangeTimeStamp) > t)).toBe(true);
    expect(after.totalCount).toBe(all.filter((r) => ms(r.lastStatusChangeTimeStamp) > t).length);
    // The node's own time format is accepted too.
    expect((await list(`limit=500&last_change_after=${encodeURIComponent(one.lastStatusChangeTimeStamp)}`)).totalCount).toBe(after.totalCount);
  });

  it('sorts ascending and pages without overlap', async () => {
    const whole = (await list('limit=500&sort_order=asc')).records;
    const paged: Rec[] = [];
    for (let offset = 0; offset < whole.length; offset += 7) paged.push(...(await list(`offset=${offset}&limit=7&sort_order=asc`)).records);
    expect(paged.map((r) => `${r.deviceName}/${r.object}/${r.type}`)).toEqual(whole.map((r) => `${r.deviceName}/${r.object}/${r.type}`));
    const byDevice = (await list('limit=500&sort_column=deviceName&sort_order=asc')).records.map((r) => r.deviceName.toLowerCase());
    expect([...byDevice].sort()).toEqual(byDevice);
  });

  it('refuses bad parameters with 400 code 4017', async () => {
    for (const q of ['limit=0', 'limit=501', 'offset=-1', 'last_perceived_severity=fatal', 'is_cleared=maybe', 'sort_column=password', 'sort_order=up', 'last_change_after=yesterday']) {
      const r = await get(`/mgmt/fault/alarms/page?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json.error.code, q).toBe(4017);
    }
  });
});

describe('summary and types', () => {
  it('count active alarms of an organization per severity, in the List.value shape', async () => {
    const org = h.sim.alarms.model.all()[0]!.org;
    const r = await get(`/mgmt/fault/alarms/summary/${encodeURIComponent(org)}`);
    expect(r.status).toBe(200);
    expect(r.json.List.value.map((v: { severity: string }) => v.severity)).toEqual(['critical', 'major', 'minor', 'warning', 'indeterminate']);
    const expected = (s: string) => h.sim.alarms.model.all().filter((a) => a.org === org && a.changes.at(-1)!.perceivedSeverity === s).length;
    for (const v of r.json.List.value as Array<{ severity: string; count: number }>) expect(v.count, v.severity).toBe(expected(v.severity));
    expect((await get('/mgmt/fault/alarms/summary/No-Such-Org')).json.error.code).toBe(4016);
  });

  it('lists the alarm types', async () => {
    const r = await get('/mgmt/fault/types');
    expect(r.json).toEqual({ List: { value: ALARM_TYPES.map((t) => t.type) } });
  });
});

describe('handle and clear', () => {
  const keyOf = (r: Rec) => ({ deviceName: r.deviceName, object: r.object, type: r.type, 'specific-problem': r['specific-problem'] });

  it('records a handling with state, note, user and time, and emits it as an event', async () => {
    const target = (await list('limit=1&is_cleared=false')).records[0]!;
    const before = h.sim.alarms.lastMessageId();
    const r = await post('/mgmt/fault/alarm/handle', { alarms: [keyOf(target)], state: 'ack', description: 'On it' });
    expect(r.status, r.text).toBe(200);
    expect(r.json[ALARM_LIST_KEY][0].alarmHandlings.at(-1)).toMatchObject({ state: 'ack', description: 'On it', user: admin.username });
    expect(h.sim.alarms.lastMessageId()).toBe(before + 1);
  });

  it('refuses unknown alarms, unknown states and viewers, changing nothing', async () => {
    const target = (await list('limit=1&is_cleared=false')).records[0]!;
    const before = h.sim.alarms.lastMessageId();
    const unknown = await post('/mgmt/fault/alarm/handle', { alarms: [keyOf(target), { ...keyOf(target), object: 'vni-9/9' }], state: 'ack' });
    expect(unknown.status).toBe(404);
    expect(unknown.json.error.code).toBe(4015);
    expect((await post('/mgmt/fault/alarm/handle', { alarms: [keyOf(target)], state: 'deleted' })).json.error.code).toBe(4017);
    expect((await post('/mgmt/fault/alarm/clear', { alarms: [] })).json.error.code).toBe(4017);
    const viewer = await post('/mgmt/fault/alarm/clear', { alarms: [keyOf(target)] }, h.user('viewer'));
    expect(viewer.status).toBe(401);
    expect(h.sim.alarms.lastMessageId()).toBe(before);
  });

  it('clears as a status change that keeps the alarm’s text and a handling closed with the note; clearing a cleared alarm changes nothing', async () => {
    const target = (await list('limit=1&is_cleared=false')).records[0]!;
    const r = await post('/mgmt/fault/alarm/clear', { alarms: [keyOf(target)], description: 'Fixed' });
    const cleared = r.json[ALARM_LIST_KEY][0];
    expect(cleared).toMatchObject({ isCleared: true, lastPerceivedSeverity: 'cleared', lastAlarmText: target.lastAlarmText });
    expect(cleared.alarmHandlings.at(-1)).toMatchObject({ state: 'closed', description: 'Fixed', user: admin.username });
    const after = h.sim.alarms.lastMessageId();
    await post('/mgmt/fault/alarm/clear', { alarms: [keyOf(target)] });
    expect(h.sim.alarms.lastMessageId()).toBe(after);
  });
});

describe('events as broker messages', () => {
  it('carry an increasing message_id, the routing key words and the change itself', () => {
    const events = h.sim.alarms.generator.step(3);
    const messages = events.map((e) => alarmMessage(e, 'node-1.example'));
    expect(messages.map((m) => m.messageId)).toEqual([events[0]!.messageId, events[0]!.messageId + 1, events[0]!.messageId + 2]);
    const m = messages[0]!;
    const e = events[0]!;
    expect(m.body).toMatchObject({ message_id: e.messageId, event_type: 'alarm', event_entity: e.alarm.deviceName, organization: e.alarm.org, user: 'system', director_hostname: 'node-1.example' });
    expect(m.routingKey.split('.')).toEqual([m.body.severity, 'alarm', e.alarm.deviceName, e.alarm.org, 'system'].map((w) => String(w).replace(/\./g, '_')));
    expect(m.body.statusChange).toMatchObject({ perceivedSeverity: m.body.severity });
  });

  it('flap an interface down and up within 2 seconds as two changes', async () => {
    const [down, up] = await h.sim.alarms.generator.flap(undefined, 'vni-0/2', 300);
    expect(down.kind === 'change' && down.change.perceivedSeverity).toBe('major');
    expect(up.kind === 'change' && up.change.perceivedSeverity).toBe('cleared');
    expect(up.messageId).toBe(down.messageId + 1);
    const gap = (up.kind === 'change' ? up.change.eventTime : 0) - (down.kind === 'change' ? down.change.eventTime : 0);
    // The node's times are whole milliseconds, each read from the clock when its change happens:
    // a 300 ms wait between two readings can show as 299 (CI: one did).
    expect(gap).toBeGreaterThanOrEqual(299);
    expect(gap).toBeLessThan(2000);
  });
});
