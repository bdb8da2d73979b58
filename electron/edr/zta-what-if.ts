/**
 * The what-if's Save (issue 11): stores the tenant's risk overrides, then scores the hosts of its
 * newest completed cycle again under them as a cycle of kind `rescore` (as of the time their facts
 * were collected), committed and published like a poll.
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { isCliConnectorId } from './connector-ids';
import type { ConnectorRegistry } from './registry';
import type { ConnectorRuntime, EdrScheduler } from './scheduler';
import type { EdrStore } from './store/edr-store';

export const RESCORE_BATCH = 2_000;

export interface WhatIfDeps {
  store: Pick<EdrStore, 'latestCycles' | 'storedRecords'>;
  registry: ConnectorRegistry;
  scheduler: Pick<EdrScheduler, 'rescore'>;
}

/** Answers the new cycle, or null when there was nothing to rescore. */
export async function applyRisk(d: WhatIfDeps, connectorId: string, risk: unknown): Promise<{ cycleId: number | null }> {
  if (isCliConnectorId(connectorId) && !d.registry.list().some((c) => c.id === connectorId)) {
    throw new AppError(ErrorCodes.validation, 'This tenant was polled by the command line and is not registered here.', 'Add it on the Connectors page to give it risk settings of its own.');
  }
  d.registry.setRisk(connectorId, risk);
  const latest = (await d.store.latestCycles()).find((c) => c.connectorId === connectorId);
  if (!latest) return { cycleId: null };
  const cycleId = await d.scheduler.rescore(connectorId, storedHostsSource(d.store, connectorId, latest), new Date(latest.finishedAt));
  return { cycleId };
}

/**
 * The hosts of a connector's newest completed cycle (`latest`) as a runtime hands them out, a
 * batch at a time from the store: what a rescore scores again (here, and a team's worker: C-93).
 */
export function storedHostsSource(store: Pick<EdrStore, 'storedRecords'>, connectorId: string, latest: { cycleId: number; hosts: number }): ConnectorRuntime {
  return {
    async poll({ onHosts, signal, onProgress }) {
      let after = '';
      let done = 0;
      for (;;) {
        if (signal.aborted) break;
        const batch = await store.storedRecords(connectorId, latest.cycleId, after, RESCORE_BATCH);
        if (batch.length === 0) break;
        done += batch.length;
        onProgress({ phase: 'devices', done, total: latest.hosts });
        await onHosts?.(batch);
        after = batch[batch.length - 1]!.hostId;
      }
      return [];
    },
  };
}
