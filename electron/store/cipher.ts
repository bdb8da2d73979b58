/**
 * Ciphers for the credential vault. The vault stores only what `encrypt` returns; a cipher
 * decides where the key comes from:
 * - `safeStorage` (electron/platform/safe-storage.ts): the OS keyring, desktop default;
 * - `passphrase`: AES-256-GCM with a key derived by scrypt from a passphrase the operator gives,
 *   salted with 16 random bytes stored in the vault file;
 * - `memory`: a random key that lives and dies with the process; its vault never touches disk.
 * Plain Node.
 */
import { createCipheriv, createDecipheriv, randomBytes, scrypt as scryptCb, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { registerSecret } from '../log';

/** Parameters a cipher keeps in the vault file header (e.g. the scrypt salt). JSON only. */
export type CipherParams = Record<string, unknown>;

export interface SecretCipher {
  /** Stored in the vault file and shown as AppInfo.secretStorage: `safeStorage`, `passphrase`, `memory`. */
  readonly kind: string;
  /** False for a cipher whose vault must never be written to disk. Default true. */
  readonly persistent?: boolean;
  isAvailable(): boolean;
  encrypt(plain: string): Buffer | Promise<Buffer>;
  decrypt(data: Buffer): string | Promise<string>;
  /**
   * Called once when a vault opens, with the parameters stored in its file (undefined for a new
   * vault); answers the parameters to store. The passphrase cipher derives its key here.
   */
  open?(params: CipherParams | undefined): Promise<CipherParams>;
}

/** The key parameters stored in a vault file are unusable: the file header is damaged. */
export class CipherParamsError extends Error {
  override readonly name = 'CipherParamsError';
}

const VERSION = 1;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

/** scrypt cost of new vaults: N=2^15, r=8, p=1 (about 32 MiB and 0.1 s per unlock). */
export const SCRYPT_DEFAULTS = { N: 2 ** 15, r: 8, p: 1 } as const;

/** What a vault file may ask for: bounded, so a tampered header cannot make us hog memory. */
const ScryptParams = z.object({
  kdf: z.literal('scrypt'),
  salt: z.string().refine((s) => Buffer.from(s, 'base64').length === SALT_BYTES, 'salt must be 16 bytes'),
  N: z.number().int().refine((n) => n >= 2 ** 14 && n <= 2 ** 20 && (n & (n - 1)) === 0, 'N must be a power of two from 2^14 to 2^20'),
  r: z.number().int().min(1).max(16),
  p: z.number().int().min(1).max(4),
});

const scrypt = (secret: string, salt: Buffer, o: { N: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) => {
    const options: ScryptOptions = { N: o.N, r: o.r, p: o.p, maxmem: 128 * o.N * o.r * o.p + 32 * 1024 * 1024 };
    scryptCb(secret.normalize('NFC'), salt, KEY_BYTES, options, (err, key) => (err ? reject(err) : resolve(key)));
  });

/** Layout: version (1) | IV (12) | auth tag (16) | ciphertext. A fresh random IV per secret. */
function gcmEncrypt(key: Buffer, plain: string): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([VERSION]), iv, cipher.getAuthTag(), body]);
}

/** Throws when the data was not made with this key or was changed (the auth tag is checked). */
function gcmDecrypt(key: Buffer, data: Buffer): string {
  if (data.length < 1 + IV_BYTES + TAG_BYTES || data[0] !== VERSION) throw new Error('not a vault ciphertext');
  const iv = data.subarray(1, 1 + IV_BYTES);
  const tag = data.subarray(1 + IV_BYTES, 1 + IV_BYTES + TAG_BYTES);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(data.subarray(1 + IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}

const wrongPassphrase = () =>
  new AppError(ErrorCodes.vaultLocked, 'The vault passphrase is wrong.', 'Enter the passphrase this vault was created with (it is case-sensitive).');

/**
 * AES-256-GCM with a key from scrypt(passphrase, salt). The salt and cost are read from the vault
 * file header in `open`, or created for a new vault. A wrong passphrase shows up as a failed
 * auth tag, reported as AppError `vault.locked`.
 */
export function createPassphraseCipher(passphrase: string): SecretCipher {
  if (!passphrase) throw new AppError(ErrorCodes.vaultUnavailable, 'The vault passphrase is empty.', 'Choose a passphrase to protect saved passwords.');
  registerSecret(passphrase);
  let key: Buffer | undefined;
  const needKey = () => {
    if (!key) throw new Error('passphrase cipher used before its vault was opened');
    return key;
  };
  return {
    kind: 'passphrase',
    isAvailable: () => true,
    async open(params) {
      let stored: z.infer<typeof ScryptParams>;
      if (params === undefined) {
        stored = { kdf: 'scrypt', salt: randomBytes(SALT_BYTES).toString('base64'), ...SCRYPT_DEFAULTS };
      } else {
        const parsed = ScryptParams.safeParse(params);
        if (!parsed.success) throw new CipherParamsError(`vault key parameters are not valid: ${parsed.error.issues[0]?.message ?? ''}`);
        stored = parsed.data;
      }
      key = await scrypt(passphrase, Buffer.from(stored.salt, 'base64'), stored);
      return stored;
    },
    encrypt: (plain) => gcmEncrypt(needKey(), plain),
    decrypt(data) {
      const k = needKey();
      try {
        return gcmDecrypt(k, data);
      } catch {
        throw wrongPassphrase();
      }
    },
  };
}

/**
 * A random per-process key: secrets are kept encrypted in memory and a vault using this cipher
 * never writes a file. Browser mode without a passphrase, or a desktop without a keyring.
 */
export function createMemoryCipher(): SecretCipher {
  const key = randomBytes(KEY_BYTES);
  return {
    kind: 'memory',
    persistent: false,
    isAvailable: () => true,
    encrypt: (plain) => gcmEncrypt(key, plain),
    decrypt: (data) => gcmDecrypt(key, data),
  };
}
