/**
 * The connectors the ZTA views show (issue 11, EDR-Z8, EDR-Z10): every registered one and every
 * tenant only the CLI stored, each with its newest completed cycle and how its data stands.
 */
import { isTransportFailure } from '../../shared/model/errors';
import type { ConnectorHealth, ZtaConnector } from '../../shared/model/zta';
import { findRegisteredConnector } from '../../shared/model/connector-secret';
import { defaultConnectorName, isCliConnectorId } from './connector-ids';
import type { ConnectorRegistry, StoredConnector } from './registry';
import type { EdrScheduler } from './scheduler';
import type { EdrStore, LatestCycle } from './store/edr-store';

/** A connector as the views know it: registered, or only stored by the CLI (no risk overrides then). */
export type ShownConnector = Pick<StoredConnector, 'id' | 'name' | 'vendor' | 'tenantId' | 'risk' | 'notAssessed'>;

export interface ZtaConnectorDeps {
  store: EdrStore;
  registry: ConnectorRegistry;
  scheduler: Pick<EdrScheduler, 'status'>;
  /**
   * Show every connector the store holds a completed cycle of, named from its cycles, not only the
   * tenants the CLI stored: a team's PostgreSQL, which no data folder registers (`zta export --database-url`).
   */
  everyStored?: boolean;
}

/**
 * The connectors the views show: every registered one, then every tenant the CLI stored into
 * this folder without it being registered (EDR-Z8: named from the store; once the tenant is
 * registered its connector stands for it). A deleted connector's rows stay hidden.
 */
export async function shownConnectors(d: ZtaConnectorDeps, latest: ReadonlyMap<string, Pick<LatestCycle, 'cycleId'>>): Promise<ShownConnector[]> {
  const registered = d.registry.list();
  const out: ShownConnector[] = [...registered];
  for (const [connectorId, l] of latest) {
    if ((!d.everyStored && !isCliConnectorId(connectorId)) || registered.some((c) => c.id === connectorId)) continue;
    const cycle = await d.store.cycle(l.cycleId);
    if (!cycle || findRegisteredConnector(registered, { vendor: cycle.vendor, tenantId: cycle.tenantId })) continue;
    out.push({ id: connectorId, name: defaultConnectorName(cycle), vendor: cycle.vendor, tenantId: cycle.tenantId });
  }
  return out;
}

/** Each connector's newest completed cycle, by connector id. */
export async function latestByConnector(store: EdrStore): Promise<Map<string, LatestCycle>> {
  return new Map((await store.latestCycles()).map((c) => [c.connectorId, c]));
}

/** Every connector with its newest completed cycle and how its data stands (EDR-Z10). */
export async function ztaConnectors(d: ZtaConnectorDeps): Promise<ZtaConnector[]> {
  const latest = await latestByConnector(d.store);
  const out: ZtaConnector[] = [];
  for (const c of await shownConnectors(d, latest)) {
    const done = latest.get(c.id);
    const last = await d.store.lastCycle(c.id);
    const running = d.scheduler.status(c.id).running;
    const attempt = last && last.id !== done?.cycleId && last.status !== 'running' && last.status !== 'completed' ? last : undefined;
    let health: ConnectorHealth = done ? 'online' : 'never';
    if (running) health = 'running';
    else if (attempt?.status === 'failed') health = attempt.errorCode && isTransportFailure(attempt.errorCode) ? 'offline' : 'failing';
    out.push({
      connectorId: c.id,
      name: c.name,
      vendor: c.vendor,
      tenantId: c.tenantId,
      cycleId: done?.cycleId ?? null,
      asOf: done?.finishedAt ?? null,
      kind: done?.kind ?? null,
      hosts: done?.hosts ?? 0,
      health,
      lastAttemptAt: attempt ? (attempt.finishedAt ?? attempt.startedAt) : null,
      lastError: attempt?.error ?? null,
    });
  }
  return out;
}
