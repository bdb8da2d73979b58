/** Reading the node's alarm records and broker messages (MN-AL1, MN-AL8, MN-AL10). */
import { describe, expect, it } from 'vitest';
import { parseAlarmMessage, parseAlarmPage, parseAlarmTypes, timeMs } from '../../../electron/alarms/wire';

const head = {
  device: 'uuid-1',
  deviceName: 'branch-1',
  org: 'Contoso',
  object: 'vni-0/0',
  type: 'interface-down',
  'specific-problem': 'link-down',
  lastAlarmText: 'Interface vni-0/0 is down',
  lastPerceivedSeverity: 'major',
  isCleared: false,
  lastStatusChangeTimeStamp: '2026-05-01T12:00:00.250+0000',
};
const message = (patch: Record<string, unknown> = {}) => ({
  message_id: 42,
  severity: 'major',
  event_type: 'alarm',
  event_entity: 'branch-1',
  organization: 'Contoso',
  user: 'system',
  event_time: '2026-05-01T12:00:00.250+0000',
  director_hostname: 'node-1',
  alarm: head,
  statusChange: { eventTime: '2026-05-01T12:00:00.250+0000', perceivedSeverity: 'major', alarmText: 'Interface vni-0/0 is down' },
  ...patch,
});
const reason = (body: unknown) => {
  const r = parseAlarmMessage(typeof body === 'string' ? body : JSON.stringify(body));
  return r.ok ? 'ok' : r.reason;
};

describe('times', () => {
  it('reads the node form, ISO, the appliance form and epoch ms alike', () => {
    const ms = Date.UTC(2026, 4, 1, 12, 0, 0, 250);
    for (const t of ['2026-05-01T12:00:00.250+0000', '2026-05-01T12:00:00.250Z', '2026-05-01T14:00:00.250+02:00', ms, String(ms)]) expect(timeMs(t), String(t)).toBe(ms);
    expect(timeMs('2026-05-01 12:00:00.2')).toBe(Date.UTC(2026, 4, 1, 12, 0, 0, 200));
    for (const t of ['', 'soon', null, undefined, -5, {}]) expect(timeMs(t), String(t)).toBeUndefined();
    // The last text read is kept: the same text again, another, and back, each read as itself.
    const reads = ['2026-05-01T12:00:00.250+0000', '2026-05-01T12:00:00.250+0000', 'soon', 'soon', '2026-05-01T12:00:00.251+0000', '2026-05-01T12:00:00.250+0000'].map(timeMs);
    expect(reads).toEqual([ms, ms, undefined, undefined, ms + 1, ms]);
  });
});

describe('broker messages', () => {
  it('read the change with its message ID and node', () => {
    const r = parseAlarmMessage(JSON.stringify(message()));
    expect(r.ok && r.value).toMatchObject({
      messageId: 42,
      director: 'node-1',
      eventType: 'alarm',
      head: { device: 'uuid-1', deviceName: 'branch-1', specificProblem: 'link-down', severity: 'major', cleared: false, lastChangeMs: Date.UTC(2026, 4, 1, 12, 0, 0, 250) },
      changes: [{ eventMs: Date.UTC(2026, 4, 1, 12, 0, 0, 250), severity: 'major', text: 'Interface vni-0/0 is down' }],
      handlings: [],
    });
  });

  it('read severities and states in any case, ids as digits, booleans as strings', () => {
    const r = parseAlarmMessage(JSON.stringify(message({ message_id: '43', severity: 'MAJOR', alarm: { ...head, isCleared: 'false', lastPerceivedSeverity: 'Major' }, statusChange: undefined, alarmHandling: { time: 1, state: 'Acknowledged', user: 'ops', description: '' } })));
    expect(r.ok && r.value.messageId).toBe(43);
    expect(r.ok && r.value.handlings).toEqual([{ atMs: 1, state: 'ack', user: 'ops', description: '' }]);
  });

  it('refuse, with the reason, what is not JSON, lacks a field or names an unknown severity', () => {
    expect(reason('{ not json')).toBe('not JSON');
    expect(reason('[1,2]')).toBe('not a JSON object');
    expect(reason(message({ message_id: undefined }))).toBe('message_id is missing');
    expect(reason(message({ message_id: 0 }))).toBe('message_id is not a whole number from 1');
    expect(reason(message({ message_id: 'x1' }))).toBe('message_id is not a whole number from 1');
    expect(reason(message({ event_time: undefined }))).toBe('event_time is missing');
    expect(reason(message({ severity: 'fatal' }))).toBe('severity “fatal” is not a known severity');
    expect(reason(message({ alarm: undefined }))).toBe('alarm is missing or not an object');
    expect(reason(message({ alarm: { ...head, type: '' } }))).toBe('alarm.type is missing');
    expect(reason(message({ alarm: { ...head, lastPerceivedSeverity: 'bad' } }))).toBe('alarm.lastPerceivedSeverity “bad” is not a known severity');
    expect(reason(message({ statusChange: { eventTime: 'never', perceivedSeverity: 'major' } }))).toBe('statusChange.eventTime is missing or not a time');
    expect(reason(message({ statusChange: undefined }))).toBe('neither statusChange nor alarmHandling is present');
    expect(reason(message({ statusChange: undefined, alarmHandling: { time: 5, state: 'archived' } }))).toBe('alarmHandling.state is missing or not a handling state');
  });
});

describe('list pages', () => {
  it('read the list under any namespace, List.value, a bare array, and 204', () => {
    for (const body of [{ totalCount: 1, 'versanms.fault-alarm-list': [head] }, { totalCount: 1, 'mgmt.fault-alarm-list': [head] }, { List: { value: [head] } }, [head], { alarms: [head] }]) {
      const p = parseAlarmPage(body);
      expect(p.items.map((i) => i.head.deviceName), JSON.stringify(body).slice(0, 40)).toEqual(['branch-1']);
    }
    expect(parseAlarmPage(undefined)).toMatchObject({ items: [], unreadable: 0 });
    expect(() => parseAlarmPage({ something: [] })).toThrow(/alarm list/);
  });

  it('leave out a record without its key, and an unreadable change of a readable record', () => {
    const p = parseAlarmPage({ totalCount: 2, 'mgmt.fault-alarm-list': [{ ...head, object: undefined }, { ...head, statusChanges: [{ eventTime: 'x' }, { eventTime: 5, perceivedSeverity: 'minor', alarmText: 't' }] }] });
    expect(p.unreadable).toBe(1);
    expect(p.reasons).toEqual(['record.object is missing']);
    expect(p.items[0]!.changes).toEqual([{ eventMs: 5, severity: 'minor', text: 't' }]);
  });

  it('read the alarm types as names or objects', () => {
    expect(parseAlarmTypes({ List: { value: ['a', 'b'] } })).toEqual(['a', 'b']);
    expect(parseAlarmTypes([{ type: 'a' }, { name: 'b' }])).toEqual(['a', 'b']);
  });
});

describe('sizes (issue 20.5)', () => {
  it('cuts every field of a REST record and a bus message the same way, the full size noted', () => {
    const long = (c: string) => c.repeat(100_000);
    const big = { ...head, device: long('d'), deviceName: long('n'), org: long('o'), object: long('b'), type: long('t'), 'specific-problem': long('s'), lastAlarmText: long('x') };
    const record = parseAlarmPage({ totalCount: 1, 'mgmt.fault-alarm-list': [{ ...big, statusChanges: [{ eventTime: head.lastStatusChangeTimeStamp, perceivedSeverity: 'major', alarmText: long('x') }], alarmHandlings: [{ time: head.lastStatusChangeTimeStamp, state: 'ack', user: long('u'), description: long('e') }] }] }).items[0]!;
    const msg = parseAlarmMessage(JSON.stringify(message({ alarm: big, director_hostname: long('h') })));
    if (!msg.ok) throw new Error(msg.reason);
    expect(msg.value.head).toEqual(record.head);
    expect(record.head.text).toHaveLength(4096);
    expect(record.head.object).toHaveLength(1024);
    expect(record.head.org).toHaveLength(256);
    expect(record.head.text.endsWith('… [truncated, 100,000 characters]')).toBe(true);
    expect(record.changes[0]!.text).toBe(record.head.text);
    expect(record.handlings[0]!.user).toHaveLength(256);
    expect(record.handlings[0]!.description).toHaveLength(4096);
    expect(msg.value.director).toHaveLength(256);
  });

  it('reads a NUL character (which PostgreSQL’s text cannot hold) as U+FFFD in every field, from a REST record and a bus message alike', () => {
    const nul = { ...head, object: 'ge-0/0/1\u0000', lastAlarmText: 'down\u0000now' };
    const record = parseAlarmPage({ totalCount: 1, 'mgmt.fault-alarm-list': [{ ...nul, statusChanges: [{ eventTime: head.lastStatusChangeTimeStamp, perceivedSeverity: 'major', alarmText: 'a\u0000b' }], alarmHandlings: [{ time: head.lastStatusChangeTimeStamp, state: 'ack', user: 'op\u0000', description: '\u0000' }] }] }).items[0]!;
    const msg = parseAlarmMessage(JSON.stringify(message({ alarm: nul, director_hostname: 'dir\u0000' })));
    if (!msg.ok) throw new Error(msg.reason);
    expect(msg.value.head).toEqual(record.head);
    expect(record.head).toMatchObject({ object: 'ge-0/0/1\ufffd', text: 'down\ufffdnow' });
    expect(record.changes[0]!.text).toBe('a\ufffdb');
    expect(record.handlings[0]).toMatchObject({ user: 'op\ufffd', description: '\ufffd' });
    expect(msg.value.director).toBe('dir\ufffd');
  });

  it('sets a message over 1 MiB aside unread, with its size', () => {
    expect(reason(' '.repeat(1_048_577))).toBe('the message is 1,048,577 bytes, more than the 1,048,576 a message may have');
  });
});
