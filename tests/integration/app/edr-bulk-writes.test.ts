/**
 * Issue 20.7: `connectors.importBulk` stores what passed in one settings write and one vault file
 * write, however many entries the document has (before, each entry rewrote both files, so the
 * import's cost grew with the square of its size); each entry is still judged on its own, against
 * the connectors as the entries before it left them.
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { VAULT_FILE } from '../../../electron/store/vault';
import { startAppHarness, type AppHarness } from '../../support/app-harness';

let h: AppHarness;
beforeAll(async () => {
  h = await startAppHarness({ app: { edr: { firstPullDelayMs: 3_600_000 } } });
});
afterAll(async () => {
  vi.restoreAllMocks();
  await h?.close();
});

const N = 120;
/** Entry i's CID and API client ID, in Falcon's format (32 hex digits). */
const cid = (i: number) => String(i).padStart(32, 'c');
const falcon = (i: number, extra: Record<string, unknown> = {}) => ({ vendor: 'falcon', tenantId: cid(i), clientId: String(i).padStart(32, 'f'), clientSecret: `Bulk-Secret-${i}`, cloudRegion: 'eu-1', ...extra });

type Result = { index: number; ok: boolean; id?: string; action?: string; tenantId?: string; error?: { message: string; issues: Array<{ path: string }> } };

describe('connectors.importBulk writes once', () => {
  it(`stores ${N} connectors in one settings write and one vault write, judging every entry as before`, async () => {
    // Already registered before the import: updated by the document, and refused a move.
    const before = await h.call<{ id: string }>('connectors.save', falcon(9000));
    const settingsSet = vi.spyOn(h.adapters.settings, 'set');
    const rename = vi.spyOn(fsp, 'rename');
    const pushedBefore = h.pushed.length;

    const entries: unknown[] = Array.from({ length: N }, (_, i) => falcon(i));
    entries.push(
      { vendor: 'falcon', tenantId: '0bce50ba31eec400f6575834f82562fa', clientId: '2d711642b726b04401627ca9fbac32f5', clientSecret: 's', cloudRegion: 'eu-1', pollIntervalMinutes: 7 }, // N: a bad interval
      falcon(3, { clientSecret: undefined, pollIntervalMinutes: 60 }), // N+1: updates entry 3 of this document, keeping its secret
      falcon(4, { cloudRegion: 'us-2' }), // N+2: would move entry 4 of this document: refused
      falcon(5, { clientSecret: 'Bulk-Secret-5-again' }), // N+3: updates entry 5 with a new secret
      falcon(9001, { clientSecret: undefined }), // N+4: a new connector without a secret: refused
      falcon(9000, { clientSecret: undefined, name: 'Renamed' }), // N+5: updates the one registered before
      falcon(9000, { clientSecret: undefined, cloudRegion: 'us-1' }), // N+6: would move it: refused
      null, // N+7
    );
    const results = await h.call<Result[]>('connectors.importBulk', { source: 'document', text: JSON.stringify({ version: 1, connectors: entries }) });

    expect(results.map((r) => r.index)).toEqual(entries.map((_, i) => i));
    expect(results.slice(0, N).every((r) => r.ok && r.action === 'created')).toBe(true);
    const tail = results.slice(N);
    expect(tail.map((r) => [r.ok, r.action])).toEqual([
      [false, undefined],
      [true, 'updated'],
      [false, undefined],
      [true, 'updated'],
      [false, undefined],
      [true, 'updated'],
      [false, undefined],
      [false, undefined],
    ]);
    expect(tail[0]!.error?.issues[0]?.path).toBe('pollIntervalMinutes');
    expect(tail[1]!.id).toBe(results[3]!.id);
    expect(tail[2]!.error?.message).toMatch(/never moves a connector/);
    expect(tail[3]!.id).toBe(results[5]!.id);
    expect(tail[4]!.error?.issues).toEqual([expect.objectContaining({ path: 'clientSecret' })]);
    expect(tail[5]!.id).toBe(before.id);
    expect(tail[6]!.error?.message).toMatch(/never moves a connector/);

    // One write of each file, one notification naming every connector touched.
    expect(settingsSet.mock.calls.filter(([key]) => key === 'edrConnectors')).toHaveLength(1);
    expect(rename.mock.calls.filter(([, to]) => path.basename(String(to)) === VAULT_FILE)).toHaveLength(1);
    const changed = h.pushed.slice(pushedBefore).map((t) => JSON.parse(t) as { event: string; payload: { ids: string[] } }).filter((e) => e.event === 'connectors.changed');
    expect(changed).toHaveLength(1);
    expect(new Set(changed[0]!.payload.ids)).toEqual(new Set([...results.slice(0, N).map((r) => r.id), before.id]));
    settingsSet.mockRestore();
    rename.mockRestore();

    const list = await h.call<Array<{ id: string; tenantId: string; name: string; pollIntervalMinutes: number; cloudRegion?: string; hasClientSecret: boolean }>>('connectors.list');
    expect(list).toHaveLength(N + 1);
    expect(list[0]).toMatchObject({ id: before.id, name: 'Renamed', cloudRegion: 'eu-1' });
    expect(list.find((c) => c.tenantId === cid(3))).toMatchObject({ pollIntervalMinutes: 60, hasClientSecret: true });
    expect(list.find((c) => c.tenantId === cid(4))).toMatchObject({ cloudRegion: 'eu-1' });
    expect(list.some((c) => c.tenantId === '0bce50ba31eec400f6575834f82562fa' || c.tenantId === cid(9001))).toBe(false);
    expect(list.every((c) => c.hasClientSecret)).toBe(true);
  });

  it('the secrets are in the vault file: a restart reads them back, the later of two for one connector', async () => {
    // An app of its own: a restart of the file's would take it from the other test.
    const options = { app: { edr: { firstPullDelayMs: 3_600_000 } } };
    const first = await startAppHarness(options);
    const dataDir = first.dataDir;
    try {
      await first.call('connectors.save', falcon(9000));
      const entries = [falcon(3), falcon(5), falcon(5, { clientSecret: 'Bulk-Secret-5-again' }), falcon(N - 1), falcon(9000, { clientSecret: undefined, name: 'Renamed' })];
      const results = await first.call<Result[]>('connectors.importBulk', { source: 'document', text: JSON.stringify({ version: 1, connectors: entries }) });
      expect(results.map((r) => [r.ok, r.action])).toEqual([
        [true, 'created'],
        [true, 'created'],
        [true, 'updated'],
        [true, 'created'],
        [true, 'updated'],
      ]);
      await first.app.shutdown();
      const again = await startAppHarness({ dataDir, ...options });
      try {
        const byTenant = new Map(again.app.edr.registry.list().map((c) => [c.tenantId, c]));
        expect(await again.app.edr.registry.getSecret(byTenant.get(cid(3))!)).toBe('Bulk-Secret-3');
        expect(await again.app.edr.registry.getSecret(byTenant.get(cid(5))!)).toBe('Bulk-Secret-5-again');
        expect(await again.app.edr.registry.getSecret(byTenant.get(cid(N - 1))!)).toBe(`Bulk-Secret-${N - 1}`);
        expect(await again.app.edr.registry.getSecret(byTenant.get(cid(9000))!)).toBe('Bulk-Secret-9000');
      } finally {
        await again.app.shutdown();
      }
    } finally {
      await fsp.rm(dataDir, { recursive: true, force: true });
    }
  });
});
