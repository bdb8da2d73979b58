/** The connectors.* channels of the contract. */
import type { Handlers } from './router';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { ConnectorStatus, ParsedRequestOf } from '../../shared/contract';
import type { ConnectorRegistry, StoredConnector } from '../edr/registry';
import type { ConnectorRuntime, EdrScheduler } from '../edr/scheduler';

type ConnectorHandlers = Pick<
  Handlers,
  'connectors.list' | 'connectors.save' | 'connectors.delete' | 'connectors.setEnabled' | 'connectors.test' | 'connectors.pollNow' | 'connectors.cancel' | 'connectors.importBulk'
>;

/** What these channels need: the saved connectors, their schedule, their vendor clients and one node read. */
export interface ConnectorHandlerDeps {
  registry: Pick<ConnectorRegistry, 'list' | 'get' | 'view' | 'register' | 'registerBulk' | 'setEnabled' | 'remove'>;
  scheduler: Pick<EdrScheduler, 'startNow' | 'status' | 'cancel'>;
  /** A connector's row on the Connectors page: what is saved, its schedule and its last cycle. */
  status(c: StoredConnector): Promise<ConnectorStatus>;
  /** The connector's vendor client (connectors.test). */
  runtimeOf(connectorId: string): ConnectorRuntime;
  /** A GET on the connection's management node (a bulk document read from the node). */
  nodeGet(profileId: string, path: string): Promise<unknown>;
}

/**
 * The document's JSON. A parser's own message quotes the input, so it is never passed on: the
 * operator gets the line and column of the problem, nothing of the content.
 */
export function parseDocument(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    const at = /position (\d+)/.exec(e instanceof Error ? e.message : '');
    let where = '';
    if (at) {
      const before = text.slice(0, Number(at[1]));
      const line = before.split('\n').length;
      where = ` (line ${line}, column ${before.length - before.lastIndexOf('\n')})`;
    }
    throw new AppError(ErrorCodes.validation, `The connector document is not valid JSON${where}.`, 'Export it again from the management node.');
  }
}

function loadDocument(req: ParsedRequestOf<'connectors.importBulk'>, d: ConnectorHandlerDeps): Promise<unknown> {
  switch (req.source) {
    case 'document':
      return Promise.resolve(parseDocument(req.text));
    case 'node':
      return d.nodeGet(req.profileId, '/mgmt/edr/connectors');
  }
}

export function createConnectorHandlers(d: ConnectorHandlerDeps): ConnectorHandlers {
  const { registry, scheduler } = d;
  return {
    'connectors.importBulk': async (req) => {
      return registry.registerBulk(await loadDocument(req, d));
    },
    'connectors.list': async () => Promise.all(registry.list().map((c) => d.status(c))),
    'connectors.save': async (input) => registry.view((await registry.register(input, 'ui')).connector),
    'connectors.delete': async ({ connectorId }) => {
      scheduler.cancel(connectorId);
      return { deleted: await registry.remove(connectorId) };
    },
    'connectors.setEnabled': async ({ connectorId, enabled }) => registry.view(await registry.setEnabled(connectorId, enabled)),
    'connectors.test': async ({ connectorId }) => {
      const runtime = d.runtimeOf(connectorId);
      if (!runtime.test) throw new AppError(ErrorCodes.internal, 'This connector cannot be tested.', 'Run a poll instead.');
      return runtime.test(AbortSignal.timeout(60_000));
    },
    'connectors.pollNow': async ({ connectorId }) => {
      registry.get(connectorId);
      // The outcome is reported through edr.progress events.
      const { cycleId } = await scheduler.startNow(connectorId);
      return { cycleId };
    },
    'connectors.cancel': async ({ connectorId }) => ({ cancelled: scheduler.cancel(connectorId) }),
  };
}
