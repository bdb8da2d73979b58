/**
 * A connector's row on the Connectors page and where its scores go (EdrService's reporting and
 * publication jobs): what is saved, its schedule and its last cycle; the publication targets.
 */
import type { ConnectorStatus } from '../../shared/contract';
import type { ConnectorView } from '../../shared/model/connector';
import type { PublishTarget } from '../edr/publisher';
import type { EdrScheduler } from '../edr/scheduler';
import { amqpTarget, mgmtTarget } from '../edr/targets';
import type { PublicationSettings } from './publication-settings';
import type { SessionManager } from './sessions';

/** The stored cycle as far as the row shows it. */
export type LastCycle = Omit<NonNullable<ConnectorStatus['lastCycle']>, 'publishError'> & { publishError: string | null };

/**
 * The store's reader sees a cycle's commit a moment before the scheduler, which learns of it from
 * the SQL worker's reply (issue 21 item 5). Until then the cycle is still this thread's running one
 * (Poll now joins it), so the row says `running` for it too: one answer, never "completed" beside
 * `running: true`, and a Poll now sent after "completed" always starts a new cycle.
 */
export function connectorStatus(view: ConnectorView, schedule: ReturnType<EdrScheduler['status']>, last: LastCycle | undefined): ConnectorStatus {
  const stillRunning = schedule.running && last !== undefined && schedule.progress?.cycleId === last.id;
  return {
    ...view,
    running: schedule.running,
    ...(schedule.progress ? { progress: schedule.progress } : {}),
    ...(schedule.nextCycleAt ? { nextCycleAt: schedule.nextCycleAt } : {}),
    ...(last
      ? {
          lastCycle: {
            id: last.id,
            status: stillRunning ? 'running' : last.status,
            startedAt: last.startedAt,
            finishedAt: stillRunning ? null : last.finishedAt,
            hosts: last.hosts,
            error: last.error,
            publishedAt: last.publishedAt,
            ...(last.publishError ? { publishError: last.publishError } : {}),
          },
        }
      : {}),
  };
}

/**
 * RabbitMQ when configured (NORTHBOUND_AMQP_URL, or the setting `edr.amqpUrl` with its password
 * from the vault, read at each send), and the first signed-in management node.
 */
export function publicationTargets(publication: Pick<PublicationSettings, 'configured' | 'connectUrl'>, sessions: Pick<SessionManager, 'list' | 'get'>): PublishTarget[] {
  const out: PublishTarget[] = [];
  if (publication.configured()) out.push(amqpTarget({ url: () => publication.connectUrl() }));
  const signedIn = sessions.list().find((s) => s.state === 'signed-in');
  if (signedIn) {
    const session = sessions.get(signedIn.profileId);
    out.push(mgmtTarget(signedIn.profileId, (m, p, b) => session.request(m, p, b)));
  }
  return out;
}
