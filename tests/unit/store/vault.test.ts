import { promises as fsp, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AppError } from '../../../shared/model/errors';
import { createMemoryLogger, redactText } from '../../../electron/log';
import { createMemoryCipher, createMemoryVault, createPassphraseCipher, openVault, VAULT_FILE, type SecretCipher } from '../../../electron/store/vault';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-vault-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const file = () => path.join(dir, VAULT_FILE);
const open = (passphrase: string, extra: { whenUnreadable?: 'throw' | 'move-aside' } = {}) =>
  openVault({ dataDir: dir, cipher: createPassphraseCipher(passphrase), logger: createMemoryLogger(), ...extra });
const lockedError = async (p: Promise<unknown>) => {
  const e = await p.then(() => undefined, (err: unknown) => err);
  expect(e).toBeInstanceOf(AppError);
  return e as AppError;
};

/** A stand-in for safeStorage: reversible, persistent, no key of its own. */
const fakeKeyring = (kind = 'safeStorage', broken = false): SecretCipher => ({
  kind,
  isAvailable: () => true,
  encrypt: (plain) => Buffer.from(`ks:${Buffer.from(plain).toString('base64')}`),
  decrypt: (data) => {
    if (broken) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
    return Buffer.from(data.toString().slice(3), 'base64').toString();
  },
});

describe('vault with the passphrase cipher', () => {
  it('round-trips secrets across a reopen and keeps only ciphertexts on disk', async () => {
    const secret = 'S3cret-admin-Pa55';
    const vault = await open('correct horse battery staple');
    expect(vault.persistent).toBe(true);
    expect(vault.kind).toBe('passphrase');
    await vault.set('profile:a:password', secret);
    await vault.set('profile:a:clientSecret', 'client-secret-value');
    expect(await vault.get('profile:a:password')).toBe(secret);
    expect(await vault.has('profile:a:password')).toBe(true);
    expect(await vault.has('profile:b:password')).toBe(false);

    const onDisk = readFileSync(file(), 'utf8');
    expect(onDisk).not.toContain(secret);
    expect(onDisk).not.toContain(Buffer.from(secret).toString('base64'));
    expect(onDisk).not.toContain('correct horse');
    const parsed = JSON.parse(onDisk);
    expect(parsed.cipher).toBe('passphrase');
    expect(parsed.params).toMatchObject({ kdf: 'scrypt', N: 2 ** 15, r: 8, p: 1 });
    expect(Buffer.from(parsed.params.salt, 'base64')).toHaveLength(16);
    expect(Object.keys(parsed.secrets)).toEqual(['profile:a:password', 'profile:a:clientSecret']);

    const again = await open('correct horse battery staple');
    expect(await again.get('profile:a:password')).toBe(secret);
    expect(await again.get('profile:a:clientSecret')).toBe('client-secret-value');
  });

  it('writes the file with owner-only permissions and leaves no temp files', async () => {
    const vault = await open('passphrase-1');
    await Promise.all([vault.set('k1', 'value-one'), vault.set('k2', 'value-two'), vault.delete('k1')]);
    if (process.platform !== 'win32') expect(statSync(file()).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual([VAULT_FILE]);
    expect(await vault.has('k1')).toBe(false);
    expect(await vault.get('k2')).toBe('value-two');
  });

  it('uses a fresh IV for every secret', async () => {
    const vault = await open('passphrase-1');
    await vault.set('a', 'same-value');
    await vault.set('b', 'same-value');
    const { secrets } = JSON.parse(readFileSync(file(), 'utf8'));
    expect(secrets.a).not.toBe(secrets.b);
  });

  it('answers vault.locked with a hint for a wrong passphrase and leaves the file alone', async () => {
    const vault = await open('right passphrase');
    await vault.set('profile:a:password', 'hunter2-hunter2');
    const before = readFileSync(file(), 'utf8');
    const e = await lockedError(open('wrong passphrase'));
    expect(e.code).toBe('vault.locked');
    expect(e.message).toMatch(/passphrase is wrong/);
    expect(e.hint).toMatch(/passphrase this vault was created with/);
    expect(readFileSync(file(), 'utf8')).toBe(before);
  });

  it('refuses a vault written by another cipher kind', async () => {
    await (await openVault({ dataDir: dir, cipher: fakeKeyring(), logger: createMemoryLogger() })).set('k', 'value-123');
    const e = await lockedError(open('any passphrase'));
    expect(e.code).toBe('vault.locked');
    expect(e.details).toMatchObject({ storedWith: 'safeStorage', inUse: 'passphrase' });
  });

  it('moves a corrupt file aside and starts a fresh vault', async () => {
    writeFileSync(file(), '{"format":"northbound-vault", trunc');
    const logger = createMemoryLogger();
    const vault = await openVault({ dataDir: dir, cipher: createPassphraseCipher('pass-phrase'), logger });
    expect(await vault.has('anything')).toBe(false);
    const aside = readdirSync(dir).filter((f) => f.startsWith(`${VAULT_FILE}.corrupt-`));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(dir, aside[0]!), 'utf8')).toBe('{"format":"northbound-vault", trunc');
    expect(logger.lines.join('\n')).toMatch(/damaged/);
    await vault.set('k', 'value-after');
    expect(await (await open('pass-phrase')).get('k')).toBe('value-after');
  });

  it('treats valid JSON in the wrong shape, or a tampered key header, as corrupt', async () => {
    writeFileSync(file(), JSON.stringify({ hello: 'world' }));
    await open('pass-phrase');
    const header = JSON.parse(readFileSync(file(), 'utf8'));
    writeFileSync(file(), JSON.stringify({ ...header, params: { ...header.params, N: 2 ** 30 } }));
    await open('pass-phrase');
    expect(readdirSync(dir).filter((f) => f.includes('.corrupt-'))).toHaveLength(2);
  });

  it('does not move a good vault aside when deriving the key fails for another reason', async () => {
    await (await open('pass-phrase')).set('k', 'value-kept');
    const failing: SecretCipher = { ...createPassphraseCipher('pass-phrase'), open: async () => { throw new Error('ENOMEM'); } };
    await expect(openVault({ dataDir: dir, cipher: failing, logger: createMemoryLogger() })).rejects.toThrow('ENOMEM');
    expect(readdirSync(dir)).toEqual([VAULT_FILE]);
    expect(await (await open('pass-phrase')).get('k')).toBe('value-kept');
  });

  it('will not open a ciphertext under another key name (entries cannot be swapped)', async () => {
    const vault = await open('pass-phrase');
    await vault.set('profile:a:password', 'password-of-a');
    await vault.set('profile:b:password', 'password-of-b');
    const data = JSON.parse(readFileSync(file(), 'utf8'));
    data.secrets['profile:b:password'] = data.secrets['profile:a:password'];
    writeFileSync(file(), JSON.stringify(data));
    const logger = createMemoryLogger();
    const reopened = await openVault({ dataDir: dir, cipher: createPassphraseCipher('pass-phrase'), logger });
    expect(await reopened.get('profile:b:password')).toBeUndefined();
    expect(await reopened.get('profile:a:password')).toBe('password-of-a');
    expect(logger.lines.join('\n')).toMatch(/could not be decrypted/);
  });

  it('deletes by prefix and registers secrets with the log redactor', async () => {
    const vault = await open('pass-phrase');
    await vault.set('profile:a:password', 'registered-secret-1');
    await vault.set('profile:a:clientSecret', 'registered-secret-2');
    await vault.set('profile:ab:password', 'registered-secret-3');
    await vault.deletePrefix('profile:a:');
    expect(await vault.has('profile:a:password')).toBe(false);
    expect(await vault.has('profile:a:clientSecret')).toBe(false);
    expect(await vault.get('profile:ab:password')).toBe('registered-secret-3');
    expect(redactText('x registered-secret-1 y')).toBe('x [redacted] y');
    await expect(vault.deletePrefix('')).rejects.toThrow(TypeError);
    expect(Object.keys(JSON.parse(readFileSync(file(), 'utf8')).secrets)).toEqual(['profile:ab:password']);
  });

  it('sets many secrets in one file write, the later of two for one key winning; a failed write keeps none', async () => {
    const vault = await open('pass-phrase');
    await vault.set('connector:a:clientSecret', 'old-a');
    const rename = vi.spyOn(fsp, 'rename');
    try {
      await vault.setMany([
        ['connector:a:clientSecret', 'new-a'],
        ['connector:b:clientSecret', 'first-b'],
        ['connector:b:clientSecret', 'second-b'],
      ]);
      expect(rename.mock.calls.filter(([, to]) => to === file())).toHaveLength(1);
      await vault.setMany([]);
      expect(rename.mock.calls.filter(([, to]) => to === file())).toHaveLength(1);
      rename.mockRejectedValueOnce(Object.assign(new Error('disk full'), { code: 'ENOSPC' }));
      await expect(vault.setMany([['connector:a:clientSecret', 'lost-a'], ['connector:c:clientSecret', 'lost-c']])).rejects.toMatchObject({ code: 'vault.unavailable' });
    } finally {
      rename.mockRestore();
    }
    expect(await vault.get('connector:a:clientSecret')).toBe('new-a');
    expect(await vault.has('connector:c:clientSecret')).toBe(false);
    const reopened = await open('pass-phrase');
    expect(await reopened.get('connector:a:clientSecret')).toBe('new-a');
    expect(await reopened.get('connector:b:clientSecret')).toBe('second-b');
    expect(await reopened.has('connector:c:clientSecret')).toBe(false);
    await expect(vault.setMany([['', 'x']])).rejects.toThrow(TypeError);
  });
});

describe('vault for a keyring cipher (safeStorage)', () => {
  it('answers vault.locked by default when the keyring cannot decrypt, and leaves the file usable', async () => {
    await (await openVault({ dataDir: dir, cipher: fakeKeyring(), logger: createMemoryLogger() })).set('k', 'value-123');
    await expect(openVault({ dataDir: dir, cipher: fakeKeyring('safeStorage', true), logger: createMemoryLogger() })).rejects.toMatchObject({ code: 'vault.locked' });
    const vault = await openVault({ dataDir: dir, cipher: fakeKeyring(), logger: createMemoryLogger(), whenUnreadable: 'move-aside' });
    expect(await vault.get('k')).toBe('value-123');
  });

  it('starts fresh after a lost key with whenUnreadable move-aside', async () => {
    await (await openVault({ dataDir: dir, cipher: fakeKeyring(), logger: createMemoryLogger() })).set('k', 'value-123');
    let broken = true;
    const flaky: SecretCipher = { ...fakeKeyring(), decrypt: (d) => (broken ? (() => { throw new Error('x'); })() : fakeKeyring().decrypt(d)) };
    const vault = await openVault({ dataDir: dir, cipher: flaky, logger: createMemoryLogger(), whenUnreadable: 'move-aside' });
    broken = false;
    expect(await vault.has('k')).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith(`${VAULT_FILE}.unreadable-`))).toHaveLength(1);
  });

  it('refuses an unavailable cipher with vault.unavailable', async () => {
    await expect(openVault({ dataDir: dir, cipher: { ...fakeKeyring(), isAvailable: () => false }, logger: createMemoryLogger() })).rejects.toMatchObject({ code: 'vault.unavailable' });
  });
});

describe('memory vault', () => {
  it('keeps secrets for the process and writes nothing', async () => {
    const vault = await openVault({ dataDir: path.join(dir, 'data'), cipher: createMemoryCipher(), logger: createMemoryLogger() });
    expect(vault.persistent).toBe(false);
    expect(vault.kind).toBe('memory');
    await vault.set('profile:a:password', 'in-memory-secret');
    expect(await vault.get('profile:a:password')).toBe('in-memory-secret');
    await vault.deletePrefix('profile:');
    expect(await vault.has('profile:a:password')).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
    const plain = createMemoryVault();
    await plain.set('x', 'value-x-1');
    expect(await plain.get('x')).toBe('value-x-1');
  });
});

describe('passphrase cipher', () => {
  it('refuses an empty passphrase and use before the vault opens it', () => {
    expect(() => createPassphraseCipher('')).toThrow(AppError);
    expect(() => createPassphraseCipher('not-opened').encrypt('x')).toThrow(/before its vault was opened/);
  });
});
