/**
 * How the simulated node writes alarms (MN-AL1, MN-AL4, MN-AL7): the alarm record of the paged
 * list (the key mix of the product family: camelCase, `specific-problem` in kebab case), the list
 * envelope in the node's namespace like the device list (`{"totalCount","mgmt.fault-alarm-list"}`),
 * the summary and type lists under `{"List":{"value":[…]}}`, and the AMQP message of an event.
 * Times are the node's `yyyy-MM-dd'T'HH:mm:ss.SSS+0000` (as `lastModifiedTime` of devices).
 */
import { modifiedTime } from '../device-wire';
import { isCleared, latest, type SimAlarm, type SimAlarmEvent, type SimHandling, type SimStatusChange } from './model';

export const ALARM_LIST_KEY = 'mgmt.fault-alarm-list';
/** The node's form of a time; the last one is kept, since a message names one time three times over (alarm, event, change). */
let lastTime = { ms: Number.NaN, text: '' };
export const nodeTime = (ms: number): string => (ms === lastTime.ms ? lastTime.text : (lastTime = { ms, text: modifiedTime(ms) }).text);

/** The alarm without its histories (the AMQP message's `alarm`). */
export function alarmHead(a: SimAlarm): Record<string, unknown> {
  const last = latest(a);
  return {
    device: a.device,
    deviceName: a.deviceName,
    org: a.org,
    object: a.object,
    type: a.type,
    'specific-problem': a.specificProblem,
    lastAlarmText: last.alarmText,
    lastPerceivedSeverity: last.perceivedSeverity,
    isCleared: isCleared(a),
    lastStatusChangeTimeStamp: nodeTime(last.eventTime),
  };
}

export const statusChangeRecord = (c: SimStatusChange) => ({ eventTime: nodeTime(c.eventTime), perceivedSeverity: c.perceivedSeverity, alarmText: c.alarmText });
export const handlingRecord = (h: SimHandling) => ({ time: nodeTime(h.time), state: h.state, user: h.user, description: h.description });

/** One record of the paged list: the head, then the status changes and handlings (oldest first). */
export function alarmRecord(a: SimAlarm): Record<string, unknown> {
  return { ...alarmHead(a), statusChanges: a.changes.map(statusChangeRecord), alarmHandlings: a.handlings.map(handlingRecord) };
}

/** A routing-key word: the topic separator `.` cannot appear inside one (MN-AL8). */
export const routingWord = (s: string): string => (s.replace(/\./g, '_').replace(/\s+/g, '-') || '_').slice(0, 48);

export interface AlarmMessage {
  routingKey: string;
  messageId: number;
  body: Record<string, unknown>;
}

/**
 * The AMQP message of an event (MN-AL8): routing key `<severity>.<event-type>.<entity>.<organization>.<user>`
 * and the body with `message_id`, `severity`, `event_type`, `event_entity`, `organization`, `user`,
 * `event_time`, `director_hostname` and the change itself (`alarm` plus `statusChange` or `alarmHandling`).
 */
export function alarmMessage(e: SimAlarmEvent, directorHostname: string): AlarmMessage {
  const a = e.alarm;
  const change = e.kind === 'change';
  const severity = change ? e.change.perceivedSeverity : latest(a).perceivedSeverity;
  const eventType = change ? 'alarm' : 'alarm-handling';
  const user = change ? e.user : e.handling.user;
  const at = change ? e.change.eventTime : e.handling.time;
  const body: Record<string, unknown> = {
    message_id: e.messageId,
    severity,
    event_type: eventType,
    event_entity: a.deviceName,
    organization: a.org,
    user,
    event_time: nodeTime(at),
    director_hostname: directorHostname,
    alarm: alarmHead(a),
    ...(change ? { statusChange: statusChangeRecord(e.change) } : { alarmHandling: handlingRecord(e.handling) }),
  };
  return { routingKey: [severity, eventType, a.deviceName, a.org, user].map(routingWord).join('.'), messageId: e.messageId, body };
}
