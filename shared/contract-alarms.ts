/**
 * The alarm channels and events (issue 12), spread into the one contract table (contract.ts).
 * Lists, details, counters and the rate read the console's own store (they work offline);
 * acknowledge and clear go to the node first and store what it answers.
 */
import { z } from 'zod';
import { AlarmDetail, AlarmFilter, AlarmNotification, AlarmPage, AlarmRate, AlarmSourceStatus, AlarmSummary, HandlingState } from './model/alarms';

const profileId = z.string().min(1, 'Choose a connection.').max(200, 'That connection is not one of ours.');
const alarmId = z.number({ error: 'Choose an alarm.' }).int('Choose an alarm.').positive('Choose an alarm.');
/** At most this many alarms per acknowledge or clear (one call to the node). */
export const MAX_ALARMS_PER_ACTION = 500;
const alarmIds = z.array(alarmId).min(1, 'Choose at least one alarm.').max(MAX_ALARMS_PER_ACTION, `Choose at most ${MAX_ALARMS_PER_ACTION} alarms at a time.`);
/** An operator's note on a handling or a clear (the node keeps it with the alarm). */
export const AlarmNote = z.string().trim().max(1000, 'The note is longer than 1,000 characters.');
/** One window of the virtualized list. */
export const MAX_ALARM_WINDOW = 1000;

export const AlarmActionResult = z.object({
  /** Alarms the node changed (and the console stored). */
  updated: z.number().int(),
  /** Alarms the console no longer has (retention) or the node did not know; nothing was sent for them. */
  missing: z.array(z.number().int()),
});
export type AlarmActionResult = z.infer<typeof AlarmActionResult>;

export const alarmChannels = {
  'alarms.list': {
    request: z
      .object({
        profileId,
        filter: AlarmFilter.default({}),
        offset: z.number().int().min(0).max(10_000_000).default(0),
        limit: z.number().int().min(1).max(MAX_ALARM_WINDOW, `A window holds at most ${MAX_ALARM_WINDOW} alarms.`).default(200),
      })
      .strict(),
    response: AlarmPage,
    description: 'A window of a connection’s stored alarms, newest change first, with the filters given (for a virtualized list).',
  },
  'alarms.get': {
    request: z.object({ profileId, id: alarmId }).strict(),
    response: AlarmDetail,
    description: 'One stored alarm with its status changes and handlings.',
  },
  'alarms.acknowledge': {
    request: z.object({ profileId, ids: alarmIds, note: AlarmNote.default(''), state: HandlingState.default('ack') }).strict(),
    response: AlarmActionResult,
    description: 'Acknowledge (or otherwise handle) one or many alarms on the node with a note; the node’s answer is stored.',
  },
  'alarms.clear': {
    request: z.object({ profileId, ids: alarmIds, note: AlarmNote.default('') }).strict(),
    response: AlarmActionResult,
    description: 'Clear one or many alarms on the node with a note; the node’s answer is stored.',
  },
  'alarms.summary': {
    request: z.object({ profileId }).strict(),
    response: AlarmSummary,
    description: 'Active alarms per organization and severity (stored).',
  },
  'alarms.rate': {
    request: z.object({ profileId, minutes: z.number().int().min(1).max(1440, 'At most a day (1,440 minutes).').default(60) }).strict(),
    response: AlarmRate,
    description: 'Alarm changes per minute over the last minutes (stored), for a chart.',
  },
  'alarms.status': {
    request: z.object({ profileId }).strict(),
    response: AlarmSourceStatus,
    description: 'Which source feeds a connection’s alarms (broker or polling), whether it is live and how far behind.',
  },
} as const;

export const alarmEvents = {
  /**
   * Stored alarms changed (batched: at most one event per connection every 250 ms). `ids` are the
   * alarms that changed since the last event (at most 500; `more` when there were more).
   */
  'alarms.changed': z.object({ profileId: z.string(), headSeq: z.number().int(), changes: z.number().int(), ids: z.array(z.number().int()), more: z.boolean() }),
  /** A connection's alarm source changed state (at most one event per connection a second, and at once on a state change). */
  'alarms.status': AlarmSourceStatus,
  /**
   * New alarm changes of a severity the operator wants to hear about (settings `alarmNotify`, C-31),
   * for the window to show as a browser notification. Only where main has no notifications of its
   * own (browser mode); at most one per connection every few seconds, summing what came meanwhile.
   */
  'alarms.notification': AlarmNotification,
} as const;
