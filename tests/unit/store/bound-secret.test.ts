import { describe, expect, it } from 'vitest';
import { ConnectorRegistry } from '../../../electron/edr/registry';
import { getBoundSecret, secretBinding, setBoundSecret } from '../../../electron/store/bound-secret';
import { memorySettings, memoryVault } from '../../support/memory-ports';

const home = secretBinding(['test', 'https://home.example']);
const away = secretBinding(['test', 'https://away.example']);

describe('a secret bound to its endpoint', () => {
  it('is found with its own binding only', async () => {
    const vault = memoryVault();
    await setBoundSecret(vault, 'k', home, 'Secret-With:Colons:1');
    expect(await getBoundSecret(vault, 'k', home)).toBe('Secret-With:Colons:1');
    expect(await getBoundSecret(vault, 'k', away)).toBeUndefined();
    expect(await getBoundSecret(vault, 'missing', home)).toBeUndefined();
    // The entry is one value: the secret never sits in the vault apart from its binding.
    expect(await vault.get('k')).toContain(home);
  });

  it('an entry written before bindings belongs to the endpoint registered now', async () => {
    const vault = memoryVault();
    await vault.set('k', 'Legacy-Secret-1');
    expect(await getBoundSecret(vault, 'k', home, () => home)).toBe('Legacy-Secret-1');
    expect(await getBoundSecret(vault, 'k', away, () => home)).toBeUndefined();
    expect(await getBoundSecret(vault, 'k', home)).toBeUndefined();
  });

  it('refuses a binding that is not a digest', async () => {
    await expect(setBoundSecret(memoryVault(), 'k', 'https://home.example', 's')).rejects.toThrow(/digest/);
  });

  it("a connector's legacy secret (stored by an older version) stays usable for its endpoint and no other", async () => {
    const settings = memorySettings();
    const vault = memoryVault();
    const reg = new ConnectorRegistry(settings, vault);
    const { connector } = await reg.register({ vendor: 'falcon', tenantId: '0123456789abcdef0123456789abcdef', clientId: '2e7d2c03a9507ae265ecf5b5356885a5', clientSecret: 'New-Secret-1', pollIntervalMinutes: 10 });
    await vault.set(`connector:${connector.id}:clientSecret`, 'Legacy-Secret-1');
    expect(await reg.getSecret(connector)).toBe('Legacy-Secret-1');
    expect((await reg.view(connector)).hasClientSecret).toBe(true);
    expect(await reg.getSecret({ ...connector, apiUrl: 'https://127.0.0.1:9' })).toBeUndefined();
  });
});
