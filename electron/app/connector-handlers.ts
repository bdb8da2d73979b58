/** The connectors.* channels of the contract. */
import type { Handlers } from './router';
import type { EdrService } from './edr-service';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { SessionManager } from './sessions';
import type { ParsedRequestOf } from '../../shared/contract';

type ConnectorHandlers = Pick<
  Handlers,
  'connectors.list' | 'connectors.save' | 'connectors.delete' | 'connectors.setEnabled' | 'connectors.test' | 'connectors.pollNow' | 'connectors.cancel' | 'connectors.importBulk'
>;

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

function loadDocument(req: ParsedRequestOf<'connectors.importBulk'>, sessions: SessionManager): Promise<unknown> {
  switch (req.source) {
    case 'document':
      return Promise.resolve(parseDocument(req.text));
    case 'node':
      return sessions.get(req.profileId).request('GET', '/mgmt/edr/connectors');
  }
}

export function createConnectorHandlers(edr: EdrService, sessions: SessionManager): ConnectorHandlers {
  return {
    'connectors.importBulk': async (req) => {
      return edr.registry.registerBulk(await loadDocument(req, sessions));
    },
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
      // The outcome is reported through edr.progress events.
      const { cycleId } = await edr.scheduler.startNow(connectorId);
      return { cycleId };
    },
    'connectors.cancel': async ({ connectorId }) => ({ cancelled: edr.scheduler.cancel(connectorId) }),
  };
}
