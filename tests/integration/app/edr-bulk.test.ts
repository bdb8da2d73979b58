/** The bulk push (spec 4): a connector document from the management node, or the text of a file the window read, through one register(). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAppHarness, type AppHarness } from '../../support/app-harness';

let h: AppHarness;
let dir: string;
const SECRET = 'Bulk-Falcon-Secret-Value-77';
const doc = {
  version: 1,
  connectors: [
    { vendor: 'falcon', tenantId: '0d5cc78be7dce6808675db15caff785b', clientId: 'e020ea474eadb81232f488287ff3257a', clientSecret: SECRET, cloudRegion: 'eu-1' },
    { vendor: 'defender', tenantId: '3f1c2b6e-1d3a-4c5b-9e8f-7a6b5c4d3e2f', clientId: 'fe9643fa-ccd2-4235-881c-49a705ef7e01', clientSecret: 'Bulk-Defender-Secret-88' },
    { vendor: 'defender', tenantId: 'contoso.onmicrosoft.com', clientId: 'd5f15945-bf56-4b68-87ef-3d591339aefa', clientSecret: 'Bulk-Defender-Secret-99', pollIntervalMinutes: 60 },
  ],
};

/** A document with the given entries, as the window would pass its text. */
const docText = (...connectors: object[]) => JSON.stringify({ ...doc, connectors });
/** The tenant IDs of the connectors a bulk import made. */
const bulkTenants = async () =>
  (await h.call<Array<{ tenantId: string; source: string }>>('connectors.list')).filter((c) => c.source === 'bulk').map((c) => c.tenantId);

// One app serves every test, so each test registers tenants of its own: none sees another's connectors.
beforeAll(async () => {
  h = await startAppHarness({ openDemo: true, app: { edr: { firstPullDelayMs: 3_600_000 } } });
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-bulk-'));
});
afterAll(async () => {
  await h?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('bulk connector registration', () => {
  it('imports the document the management node serves, reporting the bad entry by index', async () => {
    const bulkBefore = await bulkTenants();
    h.app.demo.simulator!.edrConnectorDocument.current = doc;
    const demoProfile = h.app.demo.status().oauthProfileId!;
    const results = await h.call<Array<{ index: number; ok: boolean; error?: { issues: Array<{ path: string }> } }>>('connectors.importBulk', { source: 'node', profileId: demoProfile });
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(results[1]!.error?.issues[0]?.path).toBe('pollIntervalMinutes');
    const list = await h.call<Array<{ tenantId: string; source: string; pollIntervalMinutes: number; cloudRegion?: string }>>('connectors.list');
    // The demo workspace's own two connectors (source 'ui') stay as they are: the import added exactly these bulk ones.
    expect(list.filter((c) => c.source === 'bulk' && !bulkBefore.includes(c.tenantId)).map((c) => [c.tenantId, c.source])).toEqual([
      ['0d5cc78be7dce6808675db15caff785b', 'bulk'],
      ['contoso.onmicrosoft.com', 'bulk'],
    ]);
    expect(list.find((c) => c.tenantId === '0d5cc78be7dce6808675db15caff785b')).toMatchObject({ pollIntervalMinutes: 10, cloudRegion: 'eu-1' });
  });

  it('registering again updates instead of duplicating; moving an existing connector to another region is refused', async () => {
    const falconEntry = { ...doc.connectors[0], tenantId: '75baa800a257d24a157e7a0e6c50fcac' };
    const first = await h.call<Array<{ ok: boolean; action?: string }>>('connectors.importBulk', { source: 'document', text: docText(falconEntry) });
    expect(first).toEqual([expect.objectContaining({ ok: true, action: 'created' })]);
    const again = await h.call<Array<{ ok: boolean; action?: string }>>('connectors.importBulk', {
      source: 'document',
      text: docText({ ...falconEntry, pollIntervalMinutes: 30 }),
    });
    expect(again).toEqual([expect.objectContaining({ ok: true, action: 'updated' })]);
    const moved = await h.call<Array<{ ok: boolean; error?: { message: string; issues: Array<{ path: string }> } }>>('connectors.importBulk', {
      source: 'document',
      text: docText({ ...falconEntry, cloudRegion: 'us-2' }),
    });
    expect(moved).toEqual([expect.objectContaining({ ok: false, error: expect.objectContaining({ message: expect.stringMatching(/never moves a connector/) }) })]);
    const falcon = (await h.call<Array<{ tenantId: string; cloudRegion?: string; pollIntervalMinutes: number; hasClientSecret: boolean }>>('connectors.list')).filter((c) => c.tenantId === '75baa800a257d24a157e7a0e6c50fcac');
    expect(falcon).toEqual([expect.objectContaining({ cloudRegion: 'eu-1', pollIntervalMinutes: 30, hasClientSecret: true })]);
  });

  it('imports the text of a document the window read from a picked file', async () => {
    const defenderEntry = { ...doc.connectors[2], tenantId: 'fabrikam.onmicrosoft.com' };
    // Registered once first, so the picked file's document updates it.
    await h.call('connectors.importBulk', { source: 'document', text: docText(defenderEntry) });
    const text = docText({ ...defenderEntry, pollIntervalMinutes: 120 });
    const results = await h.call<Array<{ ok: boolean; action?: string; tenantId?: string }>>('connectors.importBulk', { source: 'document', name: 'connectors.json', text });
    expect(results).toEqual([expect.objectContaining({ ok: true, action: 'updated', tenantId: 'fabrikam.onmicrosoft.com' })]);
    const contoso = (await h.call<Array<{ tenantId: string; pollIntervalMinutes: number }>>('connectors.list')).filter((c) => c.tenantId === 'fabrikam.onmicrosoft.com');
    expect(contoso).toEqual([expect.objectContaining({ pollIntervalMinutes: 120 })]);
    expect((await h.callRaw('connectors.importBulk', { source: 'document', text: '[1,' })).error?.message).toMatch(/not valid JSON/);
    expect((await h.callRaw('connectors.importBulk', { source: 'document', text: '' })).error?.message).toMatch(/empty/);
  });

  it('never reads a path a request names, and never echoes what it could not parse', async () => {
    writeFileSync(path.join(dir, 'good.json'), JSON.stringify(doc));
    const byPath = await h.callRaw('connectors.importBulk', { source: 'file', path: path.join(dir, 'good.json') });
    expect(byPath.error?.code).toBe('request.invalid');
    expect(byPath.error?.message).not.toContain('0d5cc78be7dce6808675db15caff785b');
    const shadowLike = await h.callRaw('connectors.importBulk', { source: 'document', text: 'root:*:20240:0:99999:7:::' });
    expect(shadowLike.error?.message).toMatch(/not valid JSON/);
    expect(JSON.stringify(shadowLike.error)).not.toContain('root');
    const late = await h.callRaw('connectors.importBulk', { source: 'document', text: '{"version":1,\n "connectors": [SECRET-PASSPHRASE=hunter2]}' });
    expect(late.error?.message).toMatch(/not valid JSON/);
    expect(JSON.stringify(late.error)).not.toMatch(/hunter2|PASSPHRASE/);
    expect((await h.callRaw('connectors.importBulk', { source: 'document', text: '{"connectors":[]}' })).error?.code).toBe('request.invalid');
  });

  it('never returns the imported secrets', async () => {
    // Its own imports carry the secret, from the node and from a document, so the check never runs on nothing.
    const entry = { ...doc.connectors[0], tenantId: 'd9ec7cd0b597a4360f27aac137fa887e' };
    h.app.demo.simulator!.edrConnectorDocument.current = { ...doc, connectors: [entry] };
    const demoProfile = h.app.demo.status().oauthProfileId!;
    expect(await h.call('connectors.importBulk', { source: 'node', profileId: demoProfile })).toEqual([expect.objectContaining({ ok: true })]);
    expect(await h.call('connectors.importBulk', { source: 'document', text: docText({ ...entry, pollIntervalMinutes: 30 }) })).toEqual([
      expect.objectContaining({ ok: true, action: 'updated' }),
    ]);
    expect((await bulkTenants()).filter((t) => t === 'd9ec7cd0b597a4360f27aac137fa887e')).toHaveLength(1);
    for (const text of [...h.answers, ...h.pushed]) expect(text.includes(SECRET)).toBe(false);
  });
});
