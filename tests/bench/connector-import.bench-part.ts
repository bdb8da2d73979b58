/**
 * Bench part: `connectors.importBulk` of a document at the contract's maximum (10,000 entries)
 * through the app's router, as the window sends it: createApp on a temporary data folder with a
 * passphrase vault (the file vault, as on disk), then the same document again (every entry an
 * update). Both imports start from the document's text; what is timed is the whole request.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createNodeAdapters } from '../../electron/app/node-platform';
import { createApp } from '../../electron/app/services';
import { createMemoryLogger } from '../../electron/log';

export interface ConnectorImportBench {
  entries: number;
  createMs: number;
  updateMs: number;
  created: number;
  updated: number;
}

export async function benchConnectorImport(entries: number): Promise<ConnectorImportBench> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-import-'));
  const adapters = await createNodeAdapters({ dataDir, passphrase: 'bench-vault-passphrase', logger: createMemoryLogger('warn'), mode: 'browser', demoPorts: { basic: 0, oauth: 0 } });
  const app = await createApp(adapters, { edr: { firstPullDelayMs: 3_600_000 } });
  try {
    const connectors = Array.from({ length: entries }, (_, i) =>
      i % 2 === 0
        ? { vendor: 'falcon', tenantId: String(i).padStart(32, 'c'), clientId: String(i).padStart(32, 'f'), clientSecret: `Falcon-Secret-${i}`, cloudRegion: 'eu-1' }
        : { vendor: 'defender', tenantId: `tenant-${i}.onmicrosoft.com`, clientId: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, clientSecret: `Defender-Secret-${i}`, pollIntervalMinutes: 60 },
    );
    const text = JSON.stringify({ version: 1, connectors });
    const run = async () => {
      const t0 = performance.now();
      const res = (await app.router.invoke('connectors.importBulk', { source: 'document', name: 'connectors.json', text })) as { ok: boolean; value?: Array<{ ok: boolean; action?: string }>; error?: unknown };
      const ms = performance.now() - t0;
      if (!res.ok || !res.value) throw new Error(`connectors.importBulk failed: ${JSON.stringify(res.error)}`);
      return { ms, results: res.value };
    };
    const first = await run();
    const second = await run();
    const refused = [...first.results, ...second.results].filter((r) => !r.ok).length;
    if (refused > 0) throw new Error(`connectors.importBulk refused ${refused} entries of the bench's document`);
    return {
      entries,
      createMs: first.ms,
      updateMs: second.ms,
      created: first.results.filter((r) => r.ok && r.action === 'created').length,
      updated: second.results.filter((r) => r.ok && r.action === 'updated').length,
    };
  } finally {
    await app.shutdown();
    await rm(dataDir, { recursive: true, force: true });
  }
}
