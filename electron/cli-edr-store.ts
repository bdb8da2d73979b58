/**
 * `northbound edr poll --once … --data-dir DIR` (issue 11.7, EDR-Z8): the cycle goes into DIR's
 * edr.db exactly as the app stores one. The app's own scheduler runs it (scored batch by batch
 * into the staging rows, committed in one transaction with its history and aggregates; a failed or
 * cancelled cycle leaves nothing visible), scored with the tenant's risk settings when DIR's
 * settings register the tenant, under that connector's id; otherwise under an id derived from
 * vendor and tenant (edr/connector-ids.ts). Nothing is published: the app publishes the folder's
 * newest unpublished cycle when it next runs with a target (EDR-P2).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { HostRecord } from '../shared/model/edr';
import { findRegisteredConnector } from '../shared/model/connector-secret';
import { compileRiskConfig, defaultRiskConfig, scoreHost, tenantRiskConfig, type CompiledRiskConfig, type HostScore } from '../shared/risk';
import type { SettingsBackend } from './app/ports';
import { cliConnectorId, defaultConnectorName } from './edr/connector-ids';
import { ConnectorRegistry, type StoredConnector } from './edr/registry';
import { EdrScheduler, type ConnectorRuntime } from './edr/scheduler';
import type { Logger } from './log';
import { openEdrStore } from './edr/store/sqlite-edr-store';
import { openConfSettings, SETTINGS_FILE } from './store/settings';
import { createMemoryVault } from './store/vault';

/** A settings backend holding only what it is given (the scheduler's registry of one connector). */
function memorySettings(initial: Record<string, unknown>): SettingsBackend {
  const data = new Map(Object.entries(initial));
  return { get: <T>(k: string) => data.get(k) as T | undefined, set: (k, v) => void data.set(k, v), delete: (k) => void data.delete(k) };
}

/** The connectors registered in a data folder (read only; their secrets are not needed). */
export function registeredConnectors(dataDir: string, logger: Logger): StoredConnector[] {
  if (!existsSync(path.join(dataDir, SETTINGS_FILE))) return [];
  return new ConnectorRegistry(openConfSettings(dataDir, logger), createMemoryVault(undefined, logger)).list();
}

export interface FolderPoll {
  /** The connector the cycle is stored under: the registered one, or the CLI's for this tenant. */
  connector: StoredConnector;
  registered: boolean;
  /** Why the registered connector's risk settings were not used (they do not validate), if so. */
  riskWarning?: string;
  /**
   * One cycle through the app's scheduler, scored as the app scores the tenant; `onScored` sees
   * each host's score as it is staged (a host that cannot be scored is skipped, as in the app).
   * Answers the completed cycle's id; rejects as the cycle failed.
   */
  run(runtime: ConnectorRuntime, onScored: (host: HostRecord, score: HostScore) => void): Promise<number>;
  cancel(): void;
  close(): Promise<void>;
}

/** Opens DIR for one stored poll of the tenant `fromFlags` describes (its id and name are replaced). */
export function openFolderPoll(dataDir: string, fromFlags: StoredConnector, logger: Logger): FolderPoll {
  const registeredOne = findRegisteredConnector(registeredConnectors(dataDir, logger), { vendor: fromFlags.vendor, tenantId: fromFlags.tenantId });
  const { risk: _none, ...flags } = fromFlags;
  const connector: StoredConnector = {
    ...flags,
    id: registeredOne?.id ?? cliConnectorId(fromFlags.vendor, fromFlags.tenantId),
    name: registeredOne?.name ?? defaultConnectorName(fromFlags),
    ...(registeredOne?.risk ? { risk: registeredOne.risk } : {}),
  };
  const merged = tenantRiskConfig(connector.risk);
  const config: CompiledRiskConfig = compileRiskConfig(merged.ok ? merged.value : defaultRiskConfig);
  // The app may be running on the same folder: its running cycle is its own (WAL lets both write).
  const store = openEdrStore(path.join(dataDir, 'edr.db'), { guest: true });
  let runtime: ConnectorRuntime | undefined;
  let onScored: (host: HostRecord, score: HostScore) => void = () => undefined;
  const scheduler = new EdrScheduler({
    registry: new ConnectorRegistry(memorySettings({ edrConnectors: [connector] }), createMemoryVault(undefined, logger)),
    store,
    runtimeFor: () => {
      if (!runtime) throw new Error('no runtime');
      return runtime;
    },
    score: (host, _c, now) => {
      const s = scoreHost(host, config, now);
      onScored(host, s);
      return s;
    },
    // The scheduler is stopped as soon as the cycle ends, before any publication would be due.
    publish: async () => undefined,
    onProgress: () => undefined,
    logger,
  });
  return {
    connector,
    registered: !!registeredOne,
    ...(merged.ok ? {} : { riskWarning: `The risk settings of ${connector.name} in ${dataDir} are not valid; scored with the defaults.` }),
    run: (r, observe) => {
      runtime = r;
      onScored = observe;
      return scheduler.runNow(connector.id);
    },
    cancel: () => void scheduler.cancel(connector.id),
    close: async () => {
      await scheduler.stop();
      await store.close();
    },
  };
}
