/**
 * Fault management of the management node simulator, put together: the alarm model, its REST
 * routes, the event generator and (with a broker address) the AMQP publisher.
 */
import type { SimLogger as Logger } from '../log';
import type { SimClock } from '../clock';
import { stableUuid } from '../inventory-seed';
import type { SimInventory } from '../inventory';
import type { Route, SimContext } from '../routes';
import { AlarmGenerator } from './generator';
import { SimAlarms } from './model';
import { DEFAULT_ALARM_EXCHANGE, DEFAULT_DIRECTOR_HOSTNAME, type SimAlarmControl, type SimAlarmOptions } from './options';
import { AlarmPublisher } from './publisher';
import { alarmRoutes } from './routes';
import { alarmMessage } from './wire';

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
