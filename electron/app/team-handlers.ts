/**
 * The team.* channels (issue 25.1), and the connectors.* channels of a joined console: the team's
 * connectors with each one's worker, lease, last cycle and last error (the fleet's tables), read by
 * any role; registered, changed or removed only by a member of northbound_admin, a client secret
 * sealed to the workers' public key (edr/fleet/fleet-connectors.ts). Polls and tests are the
 * workers' (a console cannot open a sealed secret).
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { ConnectorStatus } from '../../shared/contract';
import type { StoredConnector } from '../edr/registry';
import type { Handlers } from './router';
import type { TeamConsole } from './team-console';
import { mayAdminister, teamReadOnly, teamSchedule } from './team-world';
import { connectorStatus } from './edr-status';

type TeamHandlers = Pick<Handlers, 'team.get' | 'team.test' | 'team.join' | 'team.leave' | 'team.inspect' | 'team.trust'>;
type ConnectorChannels = 'connectors.list' | 'connectors.save' | 'connectors.delete' | 'connectors.setEnabled' | 'connectors.test' | 'connectors.pollNow' | 'connectors.cancel' | 'connectors.importBulk';

export function createTeamHandlers(team: TeamConsole): TeamHandlers {
  return {
    'team.get': async () => team.view(),
    'team.test': async (input) => team.test(input),
    'team.join': async (input) => team.join(input),
    'team.leave': async () => team.leave(),
    'team.inspect': async ({ host, port }) => team.inspect(host, port),
    'team.trust': async (req) => team.trust(req),
  };
}

/** A console role's answer to a connector write: what it may not do, and who may. */
const mayNotWrite = (team: TeamConsole): void => mayAdminister(team.role, 'connectors');

/** The team's connector `c` as the Connectors page shows it: what is registered, and the fleet's claim. */
async function teamStatus(team: TeamConsole, c: StoredConnector, claims: Awaited<ReturnType<ReturnType<TeamConsole['current']>['claims']>>): Promise<ConnectorStatus> {
  const world = team.current();
  const { tls: _tls, ...rest } = c;
  const view = { ...rest, hasClientSecret: await world.fleet.hasSecret(c) };
  const row = connectorStatus(view, teamSchedule(c, claims.get(c.id)), await world.edrStore.lastCycle(c.id));
  const claim = claims.get(c.id);
  return {
    ...row,
    ...(claim
      ? {
          fleet: {
            worker: claim.worker,
            leaseUntil: claim.leaseUntil,
            leaseLapsed: claim.leaseLapsed,
            dueAt: claim.dueAt,
            lastWorker: claim.lastWorker,
            lastCycleId: claim.lastCycleId,
            lastStatus: claim.lastStatus,
            lastFinishedAt: claim.lastFinishedAt,
            lastError: claim.lastError,
          },
        }
      : {}),
  };
}

/** The connectors.* handlers: the desk's own while not joined, the team's once joined. */
export function teamAwareConnectors(local: Pick<Handlers, ConnectorChannels>, team: TeamConsole, changed: (ids: string[]) => void): Pick<Handlers, ConnectorChannels> {
  const joined = () => team.joined;
  return {
    'connectors.list': async (req) => {
      if (!joined()) return local['connectors.list'](req);
      const world = team.current();
      const [list, claims] = await Promise.all([world.refreshConnectors(), world.claims()]);
      return Promise.all(list.map((c) => teamStatus(team, c, claims)));
    },
    'connectors.save': async (req) => {
      if (!joined()) return local['connectors.save'](req);
      mayNotWrite(team);
      const world = team.current();
      const c = await world.fleet.register(req);
      changed([c.id]);
      const { tls: _tls, ...rest } = c;
      return { ...rest, hasClientSecret: await world.fleet.hasSecret(c) };
    },
    'connectors.delete': async (req) => {
      if (!joined()) return local['connectors.delete'](req);
      mayNotWrite(team);
      const deleted = await team.current().fleet.remove(req.connectorId);
      if (deleted) changed([req.connectorId]);
      return { deleted };
    },
    'connectors.setEnabled': async (req) => {
      if (!joined()) return local['connectors.setEnabled'](req);
      mayNotWrite(team);
      const world = team.current();
      const c = await world.fleet.setEnabled(req.connectorId, req.enabled);
      changed([c.id]);
      const { tls: _tls, ...rest } = c;
      return { ...rest, hasClientSecret: await world.fleet.hasSecret(c) };
    },
    'connectors.importBulk': async (req) => {
      if (!joined()) return local['connectors.importBulk'](req);
      mayNotWrite(team);
      if (req.source !== 'document') throw new AppError(ErrorCodes.validation, 'A joined console imports a connector document from a file.', 'Export the document from the node and import the file.');
      const { parseDocument } = await import('./connector-handlers');
      const results = await team.current().fleet.registerBulk(parseDocument(req.text));
      changed(results.flatMap((r) => (r.ok && r.id ? [r.id] : [])));
      return results;
    },
    'connectors.test': async (req) => {
      if (!joined()) return local['connectors.test'](req);
      throw new AppError(ErrorCodes.forbidden, 'A joined console cannot test a team’s connector: its client secret is sealed to the workers, and no console can open it.', 'The Connectors page shows each connector’s last cycle and error as its worker wrote them.');
    },
    'connectors.pollNow': async (req) => {
      if (!joined()) return local['connectors.pollNow'](req);
      throw teamReadOnly('poll');
    },
    'connectors.cancel': async (req) => {
      if (!joined()) return local['connectors.cancel'](req);
      throw teamReadOnly('cancel a poll');
    },
  };
}
