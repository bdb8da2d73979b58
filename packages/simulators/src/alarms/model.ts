/**
 * The simulated node's fault management (issue 12; MN-AL1…MN-AL9): alarms keyed by device, managed
 * object, type and specific problem, each with its status changes (the node's history of the
 * alarm, oldest first, capped) and handlings. Every change and every handling is an event with a
 * message ID that increases by one per node, whether or not a broker is configured: that counter
 * is what "every change the node emitted" means in tests, and what the AMQP publisher sends.
 * No HTTP here (routes.ts) and no broker (publisher.ts).
 */
import type { SimClock } from '../clock';

export const SIM_SEVERITIES = ['critical', 'major', 'minor', 'warning', 'indeterminate', 'cleared'] as const;
export type SimSeverity = (typeof SIM_SEVERITIES)[number];
export const SIM_HANDLING_STATES = ['none', 'ack', 'investigation', 'observation', 'closed'] as const;
export type SimHandlingState = (typeof SIM_HANDLING_STATES)[number];

/** The user the node names for changes a device raised (not an operator). */
export const SYSTEM_USER = 'system';

/** Status changes kept per alarm, handlings per alarm (older ones are dropped, MN-AL4). */
export const HISTORY_CAP = { changes: 1000, handlings: 100 } as const;

export interface SimAlarmKey {
  deviceName: string;
  object: string;
  type: string;
  specificProblem: string;
}

export interface SimStatusChange {
  /** Clock ms; strictly increasing within one alarm (MN-AL6). */
  eventTime: number;
  perceivedSeverity: SimSeverity;
  alarmText: string;
}

export interface SimHandling {
  time: number;
  state: SimHandlingState;
  user: string;
  description: string;
}

export interface SimAlarm extends SimAlarmKey {
  /** The device's UUID (its appliance UUID). */
  device: string;
  org: string;
  /** Creation order, the tie-break of every sort. */
  seq: number;
  changes: SimStatusChange[];
  handlings: SimHandling[];
}

export type SimAlarmEvent =
  | { kind: 'change'; messageId: number; alarm: SimAlarm; change: SimStatusChange; user: string }
  | { kind: 'handling'; messageId: number; alarm: SimAlarm; handling: SimHandling };

export interface SimDeviceInfo {
  uuid: string;
  org: string;
}

export const alarmKey = (k: SimAlarmKey): string => `${k.deviceName}\u001f${k.object}\u001f${k.type}\u001f${k.specificProblem}`;
export const latest = (a: SimAlarm): SimStatusChange => a.changes[a.changes.length - 1]!;
export const isCleared = (a: SimAlarm): boolean => latest(a).perceivedSeverity === 'cleared';

export class SimAlarms {
  private readonly byKey = new Map<string, SimAlarm>();
  private readonly listeners = new Set<(e: SimAlarmEvent) => void>();
  private nextMessageId = 1;
  private nextSeq = 1;

  constructor(
    private readonly clock: SimClock,
    /** The device's UUID and organization; undefined for a device the node does not have. */
    private readonly deviceInfo: (deviceName: string) => SimDeviceInfo | undefined,
  ) {}

  /** The message ID of the newest event (0 before the first): events 1…lastMessageId were emitted. */
  get lastMessageId(): number {
    return this.nextMessageId - 1;
  }

  get count(): number {
    return this.byKey.size;
  }

  all(): SimAlarm[] {
    return [...this.byKey.values()];
  }

  get(k: SimAlarmKey): SimAlarm | undefined {
    return this.byKey.get(alarmKey(k));
  }

  /** Returns a function that removes the listener. Listeners run synchronously, in event order. */
  onEvent(listener: (e: SimAlarmEvent) => void): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }

  private emit(e: SimAlarmEvent): void {
    for (const l of [...this.listeners]) l(e);
  }

  /**
   * A status change of the alarm `k` (created on its first change): a raise, a new severity, or
   * `cleared`. The change's time is the clock's, or 1 ms after the alarm's previous change.
   * `as` creates the alarm for a device the inventory does not hold, with that UUID and
   * organization (a node that sends names of its own choosing).
   */
  change(k: SimAlarmKey, severity: SimSeverity, text: string, user = SYSTEM_USER, as?: SimDeviceInfo): SimAlarmEvent & { kind: 'change' } {
    const id = alarmKey(k);
    let alarm = this.byKey.get(id);
    if (!alarm) {
      const info = as ?? this.deviceInfo(k.deviceName);
      if (!info) throw new Error(`No simulator device ${k.deviceName}`);
      alarm = { ...k, device: info.uuid, org: info.org, seq: this.nextSeq++, changes: [], handlings: [] };
      this.byKey.set(id, alarm);
    }
    const previous = alarm.changes[alarm.changes.length - 1];
    const change: SimStatusChange = { eventTime: Math.max(this.clock.now(), previous ? previous.eventTime + 1 : 0), perceivedSeverity: severity, alarmText: text };
    alarm.changes.push(change);
    if (alarm.changes.length > HISTORY_CAP.changes) alarm.changes.splice(0, alarm.changes.length - HISTORY_CAP.changes);
    const event = { kind: 'change' as const, messageId: this.nextMessageId++, alarm, change, user };
    this.emit(event);
    return event;
  }

  /** An operator's handling (acknowledge, investigate, …) with a note. */
  handle(alarm: SimAlarm, state: SimHandlingState, description: string, user: string): SimAlarmEvent & { kind: 'handling' } {
    const previous = alarm.handlings[alarm.handlings.length - 1];
    const handling: SimHandling = { time: Math.max(this.clock.now(), previous ? previous.time + 1 : 0), state, user, description };
    alarm.handlings.push(handling);
    if (alarm.handlings.length > HISTORY_CAP.handlings) alarm.handlings.splice(0, alarm.handlings.length - HISTORY_CAP.handlings);
    const event = { kind: 'handling' as const, messageId: this.nextMessageId++, alarm, handling };
    this.emit(event);
    return event;
  }
}
