/**
 * Fault management of the management node simulator, put together: the alarm model, its REST
 * routes, the event generator and (with a broker address) the AMQP publisher.
 */
import type { SimLogger as Logger } from '../log';
import type { SimClock } from '../clock';
import { stableUuid } from '../inventory-seed';
import type { SimInventory } from '../inventory';
import type { Route, SimContext } from '../routes';
import { AlarmGenerator, type AlarmGeneratorOptions } from './generator';
import { SimAlarms } from './model';
import { AlarmPublisher, type AlarmPublisherStats } from './publisher';
import { alarmRoutes } from './routes';
import { alarmMessage } from './wire';

export { ALARM_TYPES } from './catalog';
export { DEFAULT_FLAP_DOWN_MS, type AlarmGeneratorOptions } from './generator';
export type { SimAlarm, SimAlarmEvent, SimAlarmKey, SimSeverity, SimHandlingState } from './model';
export { ALARM_LIST_KEY, alarmMessage, alarmRecord } from './wire';
export * from './routes';

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

export function createSimAlarms(ctx: SimContext, clock: SimClock, inventory: SimInventory, o: SimAlarmOptions, logger: Logger): { routes: Route[]; control: SimAlarmControl; close(): Promise<void> } {
  const model = new SimAlarms(clock, (name) => {
    const entry = inventory.devices.get(name);
    return entry ? { uuid: stableUuid(name, 'appliance'), org: entry.record.orgName } : undefined;
  });
  let names: string[] = [];
  let namesAt = -1;
  const deviceNames = () => {
    // Cached by count: devices are only ever added (PUT), never removed.
    if (namesAt !== inventory.devices.count) {
      names = inventory.devices.all().map((e) => e.record.deviceName);
      namesAt = inventory.devices.count;
    }
    return names;
  };
  const generator = new AlarmGenerator(model, deviceNames, o.generator);
  const exchange = o.amqp ? (o.amqp.exchange ?? DEFAULT_ALARM_EXCHANGE) : undefined;
  const publisher = o.amqp ? new AlarmPublisher({ url: o.amqp.url, exchange: exchange!, logger: logger.child('alarm-publisher'), ...(o.amqp.window ? { window: o.amqp.window } : {}) }) : undefined;
  const hostname = o.directorHostname ?? DEFAULT_DIRECTOR_HOSTNAME;
  if (publisher) {
    model.onEvent((e) => publisher.enqueue(alarmMessage(e, hostname)));
    publisher.start();
  }
  const g = o.generator;
  if (g && g.start !== false && ((g.ratePerSecond ?? 0) > 0 || g.burst || (g.flapEveryMs ?? 0) > 0)) generator.start();
  return {
    routes: alarmRoutes(ctx, model, (org) => inventory.hasOrganization(org)),
    control: {
      model,
      generator,
      lastMessageId: () => model.lastMessageId,
      publisher: publisher?.stats,
      exchange,
      published: (timeoutMs) => (publisher ? publisher.idle(timeoutMs) : Promise.resolve()),
    },
    async close() {
      generator.stop(true);
      await publisher?.close();
    },
  };
}
