/**
 * The options and the control of the node's fault management (MN-AL), and its fixed names: types and
 * constants only, so that the public types (../types.ts) need not import the assembly in setup.ts.
 */
import type { AlarmGenerator, AlarmGeneratorOptions } from './generator';
import type { SimAlarms } from './model';
import type { AlarmPublisherStats } from './publisher';

/** The topic exchange the node publishes alarm events to unless told otherwise (MN-AL). */
export const DEFAULT_ALARM_EXCHANGE = 'mgmt.alarms';
export const DEFAULT_DIRECTOR_HOSTNAME = 'mgmt-node-sim';
export const ROUTING_KEY_PATTERN = '<severity>.<event-type>.<entity>.<organization>.<user>';

export interface SimAlarmOptions {
  /** The event generator; it runs from the start when `ratePerSecond`, `burst` or `flapEveryMs` is set and `start` is not false. */
  generator?: AlarmGeneratorOptions & { start?: boolean };
  /** Publish every alarm event to this broker's topic exchange. */
  amqp?: { url: string; exchange?: string; window?: number };
  /** `director_hostname` of the messages. */
  directorHostname?: string;
}

export interface SimAlarmControl {
  model: SimAlarms;
  generator: AlarmGenerator;
  /** Message IDs 1…lastMessageId() were emitted (whether or not a broker took them). */
  lastMessageId(): number;
  /** The publisher's counters; undefined without a broker. */
  publisher: AlarmPublisherStats | undefined;
  exchange: string | undefined;
  /** Resolves when the broker confirmed every message so far (at once without a broker). */
  published(timeoutMs?: number): Promise<void>;
}
