import { describe, expect, it } from 'vitest';
import { ConnectorRegistry } from '../../../electron/edr/registry';
import { memorySettings, memoryVault } from '../../support/memory-ports';

const TENANT = '0f9c2b6e-1d3a-4c5b-9e8f-7a6b5c4d3e2f';
const defender = { vendor: 'defender', tenantId: TENANT, clientId: 'fe9643fa-ccd2-4235-881c-49a705ef7e01', clientSecret: 'Def-Secret-Value-1', pollIntervalMinutes: 30 };
const falcon = { vendor: 'falcon', tenantId: '6606d5918768259d6ad47e9100b32f51', clientId: '0fc04dde95f3fa7727a4fb1b6076f5ac', clientSecret: 'Falcon-Secret-Value-2' };

describe('connector registry', () => {
  it('stores a connector with its secret in the vault only, and Falcon defaults (10 minutes, autodiscover)', async () => {
    const settings = memorySettings();
    const vault = memoryVault();
    const reg = new ConnectorRegistry(settings, vault);
    const { connector, action } = await reg.register(falcon);
    expect(action).toBe('created');
    expect(connector).toMatchObject({ vendor: 'falcon', pollIntervalMinutes: 10, cloudRegion: 'autodiscover', enabled: true, source: 'ui' });
    expect(JSON.stringify([...settings.data])).not.toContain('Falcon-Secret-Value-2');
    expect(await reg.getSecret(connector)).toBe('Falcon-Secret-Value-2');
    const view = await reg.view(connector);
    expect(view.hasClientSecret).toBe(true);
    expect(JSON.stringify(view)).not.toContain('Secret-Value');
  });

  it('requires a poll interval for Defender (no default) and keeps it within 10..1440 minutes', async () => {
    const reg = new ConnectorRegistry(memorySettings(), memoryVault());
    const { pollIntervalMinutes: _omit, ...noInterval } = defender;
    await expect(reg.register(noInterval)).rejects.toMatchObject({ code: 'request.invalid', details: { issues: [{ path: 'pollIntervalMinutes' }] } });
    // The rule in words that say it: a lower bound is "at least" (issue 10.4; form, import and CLI share the schema).
    await expect(reg.register({ ...defender, pollIntervalMinutes: 9 })).rejects.toMatchObject({ message: expect.stringContaining("The poll interval is at least 10 minutes (the vendors' limits).") });
    await expect(reg.register({ ...defender, pollIntervalMinutes: 1441 })).rejects.toMatchObject({ message: expect.stringContaining('The poll interval is at most 1440 minutes (once a day).') });
    await expect(reg.register({ ...defender, pollIntervalMinutes: 12.5 })).rejects.toMatchObject({ message: expect.stringContaining('whole number') });
    expect((await reg.register({ ...defender, pollIntervalMinutes: 1440 })).connector.pollIntervalMinutes).toBe(1440);
  });

  it('refuses bad fields with messages that say what to fix', async () => {
    const reg = new ConnectorRegistry(memorySettings(), memoryVault());
    await expect(reg.register({ ...defender, tenantId: 'not a tenant' })).rejects.toMatchObject({ details: { issues: [{ path: 'tenantId', message: expect.stringContaining('GUID') }] } });
    await expect(reg.register({ ...falcon, cloudRegion: 'mars-1' })).rejects.toMatchObject({ details: { issues: [{ path: 'cloudRegion' }] } });
    await expect(reg.register({ ...falcon, clientSecret: undefined })).rejects.toMatchObject({ details: { issues: [{ path: 'clientSecret' }] } });
    await expect(reg.register({ ...falcon, apiUrl: 'http://plain.example' })).rejects.toMatchObject({ details: { issues: [{ path: 'apiUrl' }] } });
    await expect(reg.register({ vendor: 'sentinelone', tenantId: 'x' })).rejects.toMatchObject({ code: 'request.invalid' });
    // The vendors' formats (issue 22.4): a Falcon CID and API client ID are 32 hex digits (the CID may carry its checksum); Entra IDs are GUIDs.
    await expect(reg.register({ ...falcon, tenantId: 'cid-42' })).rejects.toMatchObject({ details: { issues: [{ path: 'tenantId', message: expect.stringContaining('customer ID (CID): 32 hexadecimal digits') }] } });
    await expect(reg.register({ ...falcon, clientId: 'falcon-client' })).rejects.toMatchObject({ details: { issues: [{ path: 'clientId', message: expect.stringContaining('API client ID: 32 hexadecimal digits') }] } });
    await expect(reg.register({ ...defender, clientId: 'app-1' })).rejects.toMatchObject({ details: { issues: [{ path: 'clientId', message: expect.stringContaining('GUID of the app registration') }] } });
    await expect(reg.register({ ...defender, tenantId: 'contoso' })).rejects.toMatchObject({ details: { issues: [{ path: 'tenantId' }] } });
    expect(reg.list()).toEqual([]);
    const withChecksum = await reg.register({ ...falcon, tenantId: `${falcon.tenantId.toUpperCase()}-7F` });
    expect(withChecksum.action).toBe('created');
    // The same CID without its checksum (or in other case) is the same tenant: updated, not a second connector.
    const plain = await reg.register({ ...falcon, clientSecret: undefined, pollIntervalMinutes: 30 });
    expect(plain).toMatchObject({ action: 'updated', connector: { id: withChecksum.connector.id, pollIntervalMinutes: 30 } });
    expect(reg.list()).toHaveLength(1);
  });

  it('one connector per vendor and tenant: registering again updates it and keeps the secret when none is given', async () => {
    const reg = new ConnectorRegistry(memorySettings(), memoryVault());
    const first = await reg.register(defender);
    const again = await reg.register({ ...defender, clientSecret: undefined, tenantId: TENANT.toUpperCase(), pollIntervalMinutes: 60 });
    expect(again.action).toBe('updated');
    expect(again.connector.id).toBe(first.connector.id);
    expect(again.connector.pollIntervalMinutes).toBe(60);
    expect(await reg.getSecret(again.connector)).toBe('Def-Secret-Value-1');
    expect(reg.list()).toHaveLength(1);
  });

  it('the bulk push converges on the same register(): good entries stored, bad ones reported by index', async () => {
    const reg = new ConnectorRegistry(memorySettings(), memoryVault());
    const seen: string[][] = [];
    reg.onChange((ids) => seen.push(ids));
    const results = await reg.registerBulk({ version: 1, connectors: [falcon, { ...defender, pollIntervalMinutes: 5 }, { ...defender, tenantId: 'contoso.onmicrosoft.com' }] });
    expect(results.map((r) => r.ok)).toEqual([true, false, true]);
    expect(results[1]).toMatchObject({ index: 1, vendor: 'defender', error: { issues: [{ path: 'pollIntervalMinutes' }] } });
    expect(reg.list().map((c) => c.source)).toEqual(['bulk', 'bulk']);
    // One notification for the whole push, naming every connector it stored.
    expect(seen).toEqual([[results[0]!.id, results[2]!.id]]);
    await expect(reg.registerBulk({ connectors: [] })).rejects.toMatchObject({ code: 'request.invalid' });
  });

  it('enables, disables and removes (with the secret)', async () => {
    const vault = memoryVault();
    const reg = new ConnectorRegistry(memorySettings(), vault);
    const { connector } = await reg.register(falcon);
    expect((await reg.setEnabled(connector.id, false)).enabled).toBe(false);
    expect(await reg.remove(connector.id)).toBe(true);
    expect(vault.data.size).toBe(0);
    expect(() => reg.get(connector.id)).toThrow(/no longer exists/);
  });
});
