import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryLogger } from '../../../electron/log';
import {
  createSafeStorageCipher,
  decideSecretStorage,
  PASSPHRASE_ENV,
  probeSafeStorage,
  safeStorageStatus,
  takePassphrase,
  type SafeStorageLike,
} from '../../../electron/platform/safe-storage';
import { openVault } from '../../../electron/store/vault';

const fake = (backend: string, available = true, extra: Partial<SafeStorageLike> = {}): SafeStorageLike => ({
  isEncryptionAvailable: () => available,
  getSelectedStorageBackend: () => backend as never,
  encryptString: (s) => Buffer.from(`k:${s}`),
  decryptString: (b) => b.toString().slice(2),
  ...extra,
});

describe('safeStorage status', () => {
  it('treats Linux basic_text as unavailable', () => {
    const status = safeStorageStatus(fake('basic_text'), 'linux');
    expect(status).toMatchObject({ usable: false, backend: 'basic_text' });
    expect(status.reason).toMatch(/basic_text/);
    expect(createSafeStorageCipher(fake('basic_text'), 'linux').isAvailable()).toBe(false);
  });

  it('accepts a real Linux keyring and the macOS / Windows stores', () => {
    for (const b of ['gnome_libsecret', 'kwallet5', 'kwallet6']) expect(safeStorageStatus(fake(b), 'linux').usable).toBe(true);
    expect(safeStorageStatus(fake('basic_text'), 'darwin')).toEqual({ usable: true, backend: 'keychain' });
    expect(safeStorageStatus(fake('unknown'), 'win32')).toEqual({ usable: true, backend: 'dpapi' });
  });

  it('is unavailable without encryption, before ready (unknown), or when the probe throws', async () => {
    expect(safeStorageStatus(fake('gnome_libsecret', false), 'linux').usable).toBe(false);
    expect(safeStorageStatus(fake('unknown'), 'linux').usable).toBe(false);
    expect(safeStorageStatus(fake('gnome_libsecret', true, { isEncryptionAvailable: () => { throw new Error('x'); } }), 'linux').usable).toBe(false);
    expect((await probeSafeStorage(fake('gnome_libsecret', true, { isAsyncEncryptionAvailable: async () => false }), 'linux')).usable).toBe(false);
    expect((await probeSafeStorage(fake('gnome_libsecret', true, { isAsyncEncryptionAvailable: async () => true }), 'linux')).usable).toBe(true);
  });
});

describe('safeStorage cipher', () => {
  it('prefers the async API and backs a persistent vault', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-ss-'));
    try {
      const encryptStringAsync = vi.fn(async (s: string) => Buffer.from(`a:${Buffer.from(s).toString('hex')}`));
      const decryptStringAsync = vi.fn(async (b: Buffer) => ({ result: Buffer.from(b.toString().slice(2), 'hex').toString(), shouldReEncrypt: false }));
      const ss = fake('kwallet6', true, { encryptStringAsync, decryptStringAsync, encryptString: () => { throw new Error('sync used'); } });
      const vault = await openVault({ dataDir: dir, cipher: createSafeStorageCipher(ss, 'linux'), logger: createMemoryLogger() });
      expect(vault).toMatchObject({ kind: 'safeStorage', persistent: true });
      await vault.set('profile:a:password', 'keyring-secret');
      expect(await vault.get('profile:a:password')).toBe('keyring-secret');
      expect(encryptStringAsync).toHaveBeenCalled();
      expect(readFileSync(path.join(dir, 'vault.json'), 'utf8')).not.toContain('keyring-secret');
      expect(readdirSync(dir)).toEqual(['vault.json']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('decideSecretStorage', () => {
  const usable = { usable: true, backend: 'gnome_libsecret' };
  const none = { usable: false, backend: 'basic_text', reason: 'x' };
  it('takes a given passphrase first, then safeStorage, then a remembered choice, else asks', () => {
    expect(decideSecretStorage(usable, { passphrase: 'pw' })).toBe('passphrase');
    expect(decideSecretStorage(none, { passphrase: 'pw' })).toBe('passphrase');
    expect(decideSecretStorage(usable, { rememberedChoice: 'memory' })).toBe('safeStorage');
    expect(decideSecretStorage(none, { rememberedChoice: 'memory' })).toBe('memory');
    expect(decideSecretStorage(none, { rememberedChoice: 'bogus' })).toBe('ask');
    expect(decideSecretStorage(none, {})).toBe('ask');
  });

  it('takes the passphrase out of the environment', () => {
    const env: NodeJS.ProcessEnv = { [PASSPHRASE_ENV]: 'from-env', OTHER: '1' };
    expect(takePassphrase(env)).toBe('from-env');
    expect(env).toEqual({ OTHER: '1' });
    expect(takePassphrase({ [PASSPHRASE_ENV]: '' })).toBeUndefined();
  });
});
