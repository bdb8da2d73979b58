/** The connectors.* channels of the contract. */
import type { Handlers } from './router';
import type { EdrService } from './edr-service';
import { AppError, ErrorCodes } from '../../shared/model/errors';

type ConnectorHandlers = Pick<Handlers, 'connectors.list' | 'connectors.save' | 'connectors.delete' | 'connectors.setEnabled' | 'connectors.test' | 'connectors.pollNow' | 'connectors.cancel'>;

export function createConnectorHandlers(edr: EdrService): ConnectorHandlers {
  return {
    'connectors.list': async () => Promise.all(edr.registry.list().map((c) => edr.status(c))),
    'connectors.save': async (input) => edr.registry.view((await edr.registry.register(input, 'ui')).connector),
    'connectors.delete': async ({ connectorId }) => {
      edr.scheduler.cancel(connectorId);
      return { deleted: await edr.registry.remove(connectorId) };
    },
    'connectors.setEnabled': async ({ connectorId, enabled }) => edr.registry.view(await edr.registry.setEnabled(connectorId, enabled)),
    'connectors.test': async ({ connectorId }) => {
      const runtime = edr.runtimeOf(connectorId);
      if (!runtime.test) throw new AppError(ErrorCodes.internal, 'This connector cannot be tested.', 'Run a poll instead.');
      return runtime.test(AbortSignal.timeout(60_000));
    },
    'connectors.pollNow': async ({ connectorId }) => {
      edr.registry.get(connectorId);
      const done = edr.scheduler.runNow(connectorId);
      done.catch(() => undefined); // the outcome is reported through edr.progress events
      const status = edr.scheduler.status(connectorId);
      return { cycleId: status.progress?.cycleId ?? (await done) };
    },
    'connectors.cancel': async ({ connectorId }) => ({ cancelled: edr.scheduler.cancel(connectorId) }),
  };
}
