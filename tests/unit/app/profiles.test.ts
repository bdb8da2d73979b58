import { describe, expect, it } from 'vitest';
import { ProfileRepository } from '../../../electron/app/profiles';
import { memorySettings, memoryVault } from '../../support/memory-ports';

const input = {
  name: 'Branch hub',
  host: 'mgmt.example.net',
  basicPort: 9182,
  oauthPort: 9183,
  authMode: 'oauth' as const,
  username: 'admin',
  oauthClientId: 'cid',
  tls: { mode: 'pinned' as const },
  password: 'pw-Very-Secret-1',
  clientSecret: 'cs-Very-Secret-2',
};

describe('ProfileRepository', () => {
  it('keeps secrets in the vault only and reports them as flags', async () => {
    const settings = memorySettings();
    const vault = memoryVault();
    const repo = new ProfileRepository(settings, vault);
    const p = await repo.save(input);
    expect(JSON.stringify([...settings.data.entries()])).not.toContain('Very-Secret');
    expect(vault.data.get(`profile:${p.id}:password`)).toMatch(/:pw-Very-Secret-1$/);
    expect(await repo.secrets(p).getPassword()).toBe('pw-Very-Secret-1');
    const view = await repo.toView(p);
    expect(view).toMatchObject({ hasPassword: true, hasClientSecret: true });
    expect(JSON.stringify(view)).not.toContain('Very-Secret');
  });

  it('keeps a stored secret when the field is left out and clears it with an empty string', async () => {
    const vault = memoryVault();
    const repo = new ProfileRepository(memorySettings(), vault);
    const p = await repo.save(input);
    const renamed = await repo.save({ ...input, id: p.id, password: undefined, clientSecret: undefined, name: 'Renamed' });
    expect(await repo.secrets(renamed).getPassword()).toBe('pw-Very-Secret-1');
    await repo.save({ ...input, id: p.id, password: '', clientSecret: undefined });
    expect(await vault.has(`profile:${p.id}:password`)).toBe(false);
  });

  it('never takes a pin from the form, keeps it across edits of the same endpoint and drops it when the host changes', async () => {
    const repo = new ProfileRepository(memorySettings(), memoryVault());
    const p = await repo.save({ ...input, tls: { mode: 'pinned', fingerprint256: 'AA:'.repeat(31) + 'AA' } as never });
    expect(p.tls).toEqual({ mode: 'pinned' });
    await repo.pin(p.id, 'AB:'.repeat(31) + 'AB', '-----BEGIN CERTIFICATE-----');
    const renamed = await repo.save({ ...input, id: p.id, name: 'Other name' });
    expect(renamed.tls).toMatchObject({ fingerprint256: 'AB:'.repeat(31) + 'AB' });
    const moved = await repo.save({ ...input, id: p.id, host: 'other.example.net' });
    expect(moved.tls).toEqual({ mode: 'pinned' });
  });

  it('binds the secrets to the endpoint and trust: a first pin keeps them, another pin, host, port or trust drops them', async () => {
    const vault = memoryVault();
    const repo = new ProfileRepository(memorySettings(), vault);
    const fp = (c: string) => `${c}:`.repeat(31) + c;
    const p = await repo.save(input);
    const secrets = async () => [await vault.has(`profile:${p.id}:password`), await vault.has(`profile:${p.id}:clientSecret`)];
    await repo.pin(p.id, fp('AB'), '-----BEGIN CERTIFICATE-----');
    expect(await secrets()).toEqual([true, true]);
    await repo.pin(p.id, fp('AB'), '-----BEGIN CERTIFICATE-----');
    expect(await secrets()).toEqual([true, true]);
    await repo.pin(p.id, fp('CD'), '-----BEGIN CERTIFICATE-----');
    expect(await secrets()).toEqual([false, false]);
    await repo.save({ ...input, id: p.id });
    expect(await secrets()).toEqual([true, true]);
    await repo.save({ ...input, id: p.id, password: undefined, clientSecret: undefined, oauthPort: 9443 });
    expect(await secrets()).toEqual([false, false]);
    // A new password given with the move is kept; the client secret not given is gone.
    await repo.save({ ...input, id: p.id, clientSecret: undefined, basicPort: 8443 });
    expect(await secrets()).toEqual([true, false]);
    await repo.save({ ...input, id: p.id, password: undefined, clientSecret: undefined, basicPort: 8443, tls: { mode: 'system' } });
    expect(await secrets()).toEqual([false, false]);
  });

  it('refuses a duplicate name with a field error', async () => {
    const repo = new ProfileRepository(memorySettings(), memoryVault());
    await repo.save(input);
    await expect(repo.save({ ...input, name: 'branch HUB' })).rejects.toMatchObject({ code: 'request.invalid', details: { issues: [{ path: 'name' }] } });
  });

  it('deletes the secrets and the known clients with the profile', async () => {
    const settings = memorySettings();
    const vault = memoryVault();
    const repo = new ProfileRepository(settings, vault);
    const p = await repo.save(input);
    repo.recordClient(p.id, { client_id: 'c1', name: 'ci', max_access_tokens: 1, max_access_tokens_per_user: 1, access_token_validity: 60, refresh_token_validity: 60, allowed_grant_types: ['password'], allowed_source_client_address: { source_type: 'ANYWHERE', ip_address_list: [] }, enabled: true, client_secret: 'must-not-be-kept' } as never);
    expect(JSON.stringify([...settings.data.entries()])).not.toContain('must-not-be-kept');
    expect(repo.knownClients(p.id)).toHaveLength(1);
    expect(await repo.delete(p.id)).toBe(true);
    expect(vault.data.size).toBe(0);
    expect(repo.knownClients(p.id)).toEqual([]);
    expect(() => repo.get(p.id)).toThrow(/no longer exists/);
  });
});
