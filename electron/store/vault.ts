/**
 * The credential vault: secrets keyed by string (`profile:<id>:password`), kept as ciphertexts
 * only, in `<dataDir>/vault.json` (or in memory for a non-persistent cipher). Plain Node.
 *
 * File layout (JSON, mode 0600, replaced atomically on every change):
 *   { format: 'northbound-vault', version: 1, cipher: <kind>, params: <cipher params, e.g. salt>,
 *     check: <ciphertext of a known value>, secrets: { <key>: <base64 ciphertext> } }
 * `check` tells a wrong key (AppError `vault.locked`) from a damaged entry. Each ciphertext
 * seals the key name with the value, so entries cannot be swapped between keys in the file.
 * A file that is not valid JSON or not in this layout is moved to `vault.json.corrupt-<time>`
 * and a fresh vault starts (logged, never a crash).
 */
import { promises as fsp } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { Vault } from './ports';
import { registerSecret, type Logger } from '../log';
import { CipherParamsError, createMemoryCipher, type CipherParams, type SecretCipher } from './cipher';
import { PRIVATE_FILE_MODE, ensurePrivateDir, moveAsideSync, restrictModeSync, writeFileAtomic } from './files';

export type { Vault } from './ports';
export { createMemoryCipher, createPassphraseCipher, type SecretCipher } from './cipher';

export const VAULT_FILE = 'vault.json';
const CHECK_KEY = '\u0000check';
const CHECK_VALUE = 'northbound-vault';

const VaultFile = z.object({
  format: z.literal('northbound-vault'),
  version: z.literal(1),
  cipher: z.string().min(1),
  params: z.record(z.string(), z.unknown()).optional(),
  check: z.string().min(1),
  secrets: z.record(z.string(), z.string()),
});
type VaultFile = z.infer<typeof VaultFile>;

export interface OpenVaultOptions {
  dataDir: string;
  cipher: SecretCipher;
  logger: Logger;
  /**
   * A vault written with this cipher kind whose check value no longer decrypts. `throw` (default)
   * answers AppError `vault.locked` (a wrong passphrase: the operator can try again).
   * `move-aside` renames it `vault.json.unreadable-<time>` and starts empty: for safeStorage,
   * whose key the OS keyring lost for good. A vault of another cipher kind always throws.
   */
  whenUnreadable?: 'throw' | 'move-aside';
}

/** Seal the key name with the value so that a ciphertext only opens under its own key. */
const seal = (key: string, value: string) => JSON.stringify([key, value]);
function unseal(key: string, text: string): string {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || parsed[0] !== key || typeof parsed[1] !== 'string') throw new Error('entry belongs to another key');
  return parsed[1];
}

function checkKey(key: string): void {
  if (typeof key !== 'string' || key.length === 0 || key === CHECK_KEY) throw new TypeError('A vault key is a non-empty string.');
}

/** Opens (or creates) the vault for `cipher`: in `<dataDir>/vault.json`, or in memory if the cipher is not persistent. */
export async function openVault(options: OpenVaultOptions): Promise<Vault> {
  const { cipher, logger } = options;
  if (cipher.persistent === false) return createMemoryVault(cipher, logger);
  if (!cipher.isAvailable()) {
    throw new AppError(ErrorCodes.vaultUnavailable, `Secret storage "${cipher.kind}" is not available.`, 'Choose another way to keep secrets: a passphrase, or memory only.');
  }
  await ensurePrivateDir(options.dataDir);
  const file = path.join(options.dataDir, VAULT_FILE);
  restrictModeSync(file, PRIVATE_FILE_MODE);
  const existing = await readVaultFile(file, logger);
  let state: VaultFile;
  if (existing && existing.cipher !== cipher.kind) {
    throw new AppError(
      ErrorCodes.vaultLocked,
      `The saved passwords in ${file} were locked with "${existing.cipher}", which is not in use now ("${cipher.kind}").`,
      existing.cipher === 'passphrase'
        ? 'Start Northbound with the vault passphrase, or move vault.json aside to start with an empty vault.'
        : 'Start Northbound where that secret storage is available, or move vault.json aside to start with an empty vault.',
      { details: { file, storedWith: existing.cipher, inUse: cipher.kind } },
    );
  }
  const verdict = existing ? await opens(existing, cipher) : 'absent';
  if (existing && verdict === 'ok') {
    state = existing;
  } else {
    if (existing && verdict === 'bad-params') {
      const moved = moveAsideSync(file, 'corrupt');
      logger.warn('the vault file header was damaged; it was moved aside and a new vault started', { file, movedTo: moved });
    } else if (existing) {
      if (options.whenUnreadable !== 'move-aside') {
        const hint = `Enter the passphrase this vault was created with. To start over, move ${file} aside (its saved passwords are lost).`;
        throw new AppError(ErrorCodes.vaultLocked, 'The saved passwords cannot be unlocked: the passphrase is wrong.', hint, { details: { file } });
      }
      const moved = moveAsideSync(file, 'unreadable');
      logger.warn('the vault key is gone; saved passwords were moved aside and a new vault started', { file, movedTo: moved, cipher: cipher.kind });
    }
    const params = cipher.open ? await cipher.open(undefined) : undefined;
    const check = await cipher.encrypt(seal(CHECK_KEY, CHECK_VALUE));
    state = { format: 'northbound-vault', version: 1, cipher: cipher.kind, ...(params ? { params } : {}), check: check.toString('base64'), secrets: {} };
    await writeFileAtomic(file, JSON.stringify(state));
  }

  const secrets = new Map(Object.entries(state.secrets));
  const persist = () => writeFileAtomic(file, JSON.stringify({ ...state, secrets: Object.fromEntries(secrets) }));
  return createVault(cipher, secrets, persist, logger, true);
}

/** A vault that keeps ciphertexts in memory only (under a per-process key by default): nothing is ever written. */
export function createMemoryVault(cipher: SecretCipher = createMemoryCipher(), logger?: Logger): Vault {
  return createVault(cipher, new Map(), async () => undefined, logger, false);
}

async function readVaultFile(file: string, logger: Logger): Promise<VaultFile | undefined> {
  let text: string;
  try {
    text = await fsp.readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new AppError(ErrorCodes.vaultUnavailable, `The vault file ${file} cannot be read.`, 'Check the permissions of the data folder.', { cause: e });
  }
  let parsed: ReturnType<typeof VaultFile.safeParse> | undefined;
  try {
    parsed = VaultFile.safeParse(JSON.parse(text));
  } catch {
    parsed = undefined;
  }
  if (parsed?.success) return parsed.data;
  const moved = moveAsideSync(file, 'corrupt');
  logger.warn('the vault file was damaged; it was moved aside and a new vault started', { file, movedTo: moved });
  return undefined;
}

/** Whether this cipher opens this vault file: derives the key from the header, then decrypts the check value. */
async function opens(existing: VaultFile, cipher: SecretCipher): Promise<'ok' | 'wrong-key' | 'bad-params'> {
  try {
    if (cipher.open) await cipher.open(existing.params as CipherParams | undefined);
  } catch (e) {
    // Only a header that is really damaged; any other failure (out of memory...) must not move the vault.
    if (e instanceof CipherParamsError) return 'bad-params';
    throw e;
  }
  try {
    return unseal(CHECK_KEY, await cipher.decrypt(Buffer.from(existing.check, 'base64'))) === CHECK_VALUE ? 'ok' : 'wrong-key';
  } catch {
    return 'wrong-key';
  }
}

function createVault(cipher: SecretCipher, secrets: Map<string, string>, persist: () => Promise<void>, logger: Logger | undefined, persistent: boolean): Vault {
  // Changes run one at a time, so writes land in the order they were asked for.
  let queue: Promise<unknown> = Promise.resolve();
  const change = <T>(fn: () => Promise<T>): Promise<T> => {
    const run = queue.then(fn, fn);
    queue = run.catch(() => undefined);
    return run;
  };
  const save = async (undo: () => void) => {
    try {
      await persist();
    } catch (e) {
      undo();
      throw new AppError(ErrorCodes.vaultUnavailable, 'The password could not be saved.', 'Check that the data folder is writable and the disk is not full.', { cause: e });
    }
  };

  return {
    kind: cipher.kind,
    persistent,
    async get(key) {
      checkKey(key);
      const stored = secrets.get(key);
      if (stored === undefined) return undefined;
      try {
        const value = unseal(key, await cipher.decrypt(Buffer.from(stored, 'base64')));
        registerSecret(value);
        return value;
      } catch (e) {
        // The key is right (the check value opened), so this entry was damaged: forget it.
        logger?.warn('a saved secret could not be decrypted and was dropped', { key, error: e instanceof Error ? e.message : String(e) });
        if (secrets.get(key) === stored) secrets.delete(key);
        return undefined;
      }
    },
    async set(key, value) {
      checkKey(key);
      if (typeof value !== 'string') throw new TypeError('A vault value is a string.');
      registerSecret(value);
      // Encrypt inside the queue too: changes apply in the order they were called.
      await change(async () => {
        const sealed = (await cipher.encrypt(seal(key, value))).toString('base64');
        const before = secrets.get(key);
        secrets.set(key, sealed);
        await save(() => (before === undefined ? secrets.delete(key) : secrets.set(key, before)));
      });
    },
    async setMany(entries) {
      for (const [key, value] of entries) {
        checkKey(key);
        if (typeof value !== 'string') throw new TypeError('A vault value is a string.');
        registerSecret(value);
      }
      if (entries.length === 0) return;
      await change(async () => {
        const sealed = await Promise.all(entries.map(async ([key, value]) => [key, (await cipher.encrypt(seal(key, value))).toString('base64')] as const));
        const before = new Map(entries.map(([key]) => [key, secrets.get(key)]));
        for (const [key, value] of sealed) secrets.set(key, value);
        await save(() => before.forEach((v, key) => (v === undefined ? secrets.delete(key) : secrets.set(key, v))));
      });
    },
    async delete(key) {
      checkKey(key);
      await change(async () => {
        const before = secrets.get(key);
        if (before === undefined || !secrets.delete(key)) return;
        await save(() => secrets.set(key, before));
      });
    },
    async deletePrefix(prefix) {
      if (typeof prefix !== 'string' || prefix.length === 0) throw new TypeError('deletePrefix needs a non-empty prefix.');
      await change(async () => {
        const removed = [...secrets].filter(([k]) => k.startsWith(prefix));
        if (removed.length === 0) return;
        for (const [k] of removed) secrets.delete(k);
        await save(() => removed.forEach(([k, v]) => secrets.set(k, v)));
      });
    },
    async has(key) {
      checkKey(key);
      return secrets.has(key);
    },
  };
}
