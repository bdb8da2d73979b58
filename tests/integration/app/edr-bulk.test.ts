/** The bulk push (spec 4): a connector document from the management node, or from a file, through one register(). */
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
    { vendor: 'falcon', tenantId: 'cid-alpha', clientId: 'fc-1', clientSecret: SECRET, cloudRegion: 'eu-1' },
    { vendor: 'defender', tenantId: '3f1c2b6e-1d3a-4c5b-9e8f-7a6b5c4d3e2f', clientId: 'app-1', clientSecret: 'Bulk-Defender-Secret-88' },
    { vendor: 'defender', tenantId: 'contoso.onmicrosoft.com', clientId: 'app-2', clientSecret: 'Bulk-Defender-Secret-99', pollIntervalMinutes: 60 },
  ],
};

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
    h.app.demo.simulator!.edrConnectorDocument.current = doc;
    const demoProfile = h.app.demo.status().oauthProfileId!;
    const results = await h.call<Array<{ index: number; ok: boolean; error?: { issues: Array<{ path: string }> } }>>('connectors.importBulk', { source: 'node', profileId: demoProfile });
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(results[1]!.error?.issues[0]?.path).toBe('pollIntervalMinutes');
    const list = await h.call<Array<{ tenantId: string; source: string; pollIntervalMinutes: number; cloudRegion?: string }>>('connectors.list');
    // The demo workspace's own two connectors (source 'ui') stay as they are.
    expect(list.filter((c) => c.source === 'bulk').map((c) => [c.tenantId, c.source])).toEqual([
      ['cid-alpha', 'bulk'],
      ['contoso.onmicrosoft.com', 'bulk'],
    ]);
    expect(list.find((c) => c.tenantId === 'cid-alpha')).toMatchObject({ pollIntervalMinutes: 10, cloudRegion: 'eu-1' });
  });

  it('imports the same document from a file; registering again updates instead of duplicating', async () => {
    const file = path.join(dir, 'connectors.json');
    writeFileSync(file, JSON.stringify({ ...doc, connectors: [{ ...doc.connectors[0], cloudRegion: 'us-2' }] }));
    const results = await h.call<Array<{ ok: boolean; action?: string }>>('connectors.importBulk', { source: 'file', path: file });
    expect(results).toEqual([expect.objectContaining({ ok: true, action: 'updated' })]);
    const falcon = (await h.call<Array<{ tenantId: string; cloudRegion?: string }>>('connectors.list')).filter((c) => c.tenantId === 'cid-alpha');
    expect(falcon).toEqual([expect.objectContaining({ cloudRegion: 'us-2' })]);
  });

  it('imports the text of a document the window read from a picked file', async () => {
    const text = JSON.stringify({ ...doc, connectors: [{ ...doc.connectors[2], pollIntervalMinutes: 120 }] });
    const results = await h.call<Array<{ ok: boolean; action?: string; tenantId?: string }>>('connectors.importBulk', { source: 'document', name: 'connectors.json', text });
    expect(results).toEqual([expect.objectContaining({ ok: true, action: 'updated', tenantId: 'contoso.onmicrosoft.com' })]);
    const contoso = (await h.call<Array<{ tenantId: string; pollIntervalMinutes: number }>>('connectors.list')).filter((c) => c.tenantId === 'contoso.onmicrosoft.com');
    expect(contoso).toEqual([expect.objectContaining({ pollIntervalMinutes: 120 })]);
    expect((await h.callRaw('connectors.importBulk', { source: 'document', text: '[1,' })).error?.message).toMatch(/not valid JSON/);
    expect((await h.callRaw('connectors.importBulk', { source: 'document', text: '' })).error?.message).toMatch(/empty/);
  });

  it('explains a file that is missing or not JSON', async () => {
    expect((await h.callRaw('connectors.importBulk', { source: 'file', path: path.join(dir, 'nope.json') })).error?.message).toMatch(/no file/);
    writeFileSync(path.join(dir, 'bad.json'), '{ not json');
    expect((await h.callRaw('connectors.importBulk', { source: 'file', path: path.join(dir, 'bad.json') })).error?.message).toMatch(/not valid JSON/);
    writeFileSync(path.join(dir, 'wrong.json'), '{"connectors":[]}');
    expect((await h.callRaw('connectors.importBulk', { source: 'file', path: path.join(dir, 'wrong.json') })).error?.code).toBe('request.invalid');
  });

  it('never returns the imported secrets', () => {
    for (const text of [...h.answers, ...h.pushed]) expect(text.includes(SECRET)).toBe(false);
  });
});
