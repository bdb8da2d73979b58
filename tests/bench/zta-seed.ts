/**
 * A data folder holding a big ZTA store for the dashboard and overview benches: one Defender
 * connector (registered, disabled so nothing polls) whose two stored cycles hold `hosts` hosts
 * (2 % moving between them, so the trend and the changes have something to show), written
 * through the app poller's path (stage + commit).
 */
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createNodeAdapters } from '../../electron/app/node-platform';
import { ConnectorRegistry } from '../../electron/edr/registry';
import { createMemoryLogger } from '../../electron/log';
import { EdrDb } from '../../electron/edr/store/edr-db';
import type { ScoredHost } from '../../shared/model/edr';
import { benchHost } from './zta-store.bench-part';

export const SEED_PASSPHRASE = 'bench-vault-passphrase';

export async function seedZtaDataDir(hosts: number): Promise<{ dataDir: string; connectorId: string }> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-zta-ui-'));
  const adapters = await createNodeAdapters({ dataDir, passphrase: SEED_PASSPHRASE, logger: createMemoryLogger('warn'), mode: 'browser' });
  const registry = new ConnectorRegistry(adapters.settings, adapters.vault);
  const { connector } = await registry.register({
    vendor: 'defender',
    name: 'Bench Defender tenant',
    enabled: false,
    tenantId: '11111111-2222-3333-4444-555555555555',
    clientId: '66666666-7777-8888-9999-000000000000',
    clientSecret: 'bench-secret-not-used',
    pollIntervalMinutes: 60,
    apiUrl: 'https://127.0.0.1:9/',
    idpUrl: 'https://127.0.0.1:9/',
  });
  const store = new EdrDb(path.join(dataDir, 'edr.db'));
  const variants = new Uint8Array(hosts);
  for (let c = 0; c < 2; c++) {
    if (c === 1) for (let i = 0; i < hosts; i += 50) variants[i] = 1;
    const at = new Date(Date.UTC(2026, 10, 24, 8, c * 10));
    const id = store.beginCycle(connector.id, 'defender', connector.tenantId, at);
    for (let i = 0; i < hosts; i += 2_000) {
      const batch: ScoredHost[] = [];
      for (let j = i; j < Math.min(hosts, i + 2_000); j++) batch.push(benchHost(j, variants[j]!, at.toISOString()));
      store.stageScores(id, connector.id, batch);
    }
    store.commitCycle(id, new Date(at.getTime() + 60_000));
  }
  store.close();
  return { dataDir, connectorId: connector.id };
}
