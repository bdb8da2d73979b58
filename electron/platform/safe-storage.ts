/**
 * Secrets at rest on the desktop: Electron safeStorage (macOS Keychain, Windows DPAPI, Linux
 * libsecret/KWallet), and the decision of what to use when it is not there.
 *
 * Linux `basic_text` counts as unavailable: it "encrypts" with a key hard-coded in Chromium.
 * Then the app must not pretend; `decideSecretStorage` answers what to do:
 *   1. a passphrase was given (NORTHBOUND_VAULT_PASSPHRASE)  -> `passphrase` (AES-256-GCM, scrypt)
 *   2. safeStorage is usable                                   -> `safeStorage`
 *   3. the operator chose memory-only before ("don't ask again") -> `memory`
 *   4. otherwise                                               -> `ask`: the app shows a dialog
 *      offering memory-only (secrets forgotten at quit) or quitting to set up a keyring or a
 *      passphrase (electron/platform/adapters.ts).
 * Call it after `app.whenReady()`: before that, Linux always reports `unknown` and no encryption.
 */
import type { SafeStorage } from 'electron';
import type { SecretCipher } from '../store/cipher';

export type SafeStorageLike = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> &
  Partial<Pick<SafeStorage, 'getSelectedStorageBackend' | 'isAsyncEncryptionAvailable' | 'encryptStringAsync' | 'decryptStringAsync'>>;

export interface SafeStorageStatus {
  usable: boolean;
  /** keychain (macOS), dpapi (Windows), or the Linux backend: gnome_libsecret, kwallet*, basic_text, unknown. */
  backend: string;
  /** Why it is not usable, in words for the operator. */
  reason?: string;
}

export const PASSPHRASE_ENV = 'NORTHBOUND_VAULT_PASSPHRASE';

function backendOf(ss: SafeStorageLike, platform: NodeJS.Platform): string {
  if (platform === 'darwin') return 'keychain';
  if (platform === 'win32') return 'dpapi';
  try {
    return ss.getSelectedStorageBackend?.() ?? 'unknown';
  } catch {
    return 'unknown';
  }
}

/** Synchronous check: encryption available and, on Linux, a real keyring (not basic_text). */
export function safeStorageStatus(ss: SafeStorageLike, platform: NodeJS.Platform = process.platform): SafeStorageStatus {
  const backend = backendOf(ss, platform);
  let available: boolean;
  try {
    available = ss.isEncryptionAvailable();
  } catch {
    available = false;
  }
  if (!available) return { usable: false, backend, reason: 'The system offers no encryption for saved passwords (no keyring is running).' };
  if (platform === 'linux' && backend === 'basic_text') {
    return { usable: false, backend, reason: 'No system keyring was found: Electron would only obscure passwords with a fixed key ("basic_text").' };
  }
  if (platform === 'linux' && backend === 'unknown') return { usable: false, backend, reason: 'The system keyring could not be identified.' };
  return { usable: true, backend };
}

/** As `safeStorageStatus`, and also waits for the asynchronous encryptor where Electron has one. */
export async function probeSafeStorage(ss: SafeStorageLike, platform: NodeJS.Platform = process.platform): Promise<SafeStorageStatus> {
  const status = safeStorageStatus(ss, platform);
  if (!status.usable || !ss.isAsyncEncryptionAvailable) return status;
  try {
    if (await ss.isAsyncEncryptionAvailable()) return status;
  } catch {
    // fall through: treat as unavailable
  }
  return { usable: false, backend: status.backend, reason: 'The system keyring did not answer.' };
}

/** The vault cipher backed by safeStorage. Uses the asynchronous API where present (Electron 45 deprecates the synchronous one). */
export function createSafeStorageCipher(ss: SafeStorageLike, platform: NodeJS.Platform = process.platform): SecretCipher {
  return {
    kind: 'safeStorage',
    isAvailable: () => safeStorageStatus(ss, platform).usable,
    encrypt: (plain) => (ss.encryptStringAsync ? ss.encryptStringAsync(plain) : ss.encryptString(plain)),
    decrypt: async (data) => (ss.decryptStringAsync ? (await ss.decryptStringAsync(data)).result : ss.decryptString(data)),
  };
}

export type SecretStorageDecision = 'safeStorage' | 'passphrase' | 'memory' | 'ask';

/** Which secret storage to use; see the top of this file. Pure, so every branch is tested. */
export function decideSecretStorage(status: SafeStorageStatus, opts: { passphrase?: string; rememberedChoice?: unknown }): SecretStorageDecision {
  if (opts.passphrase) return 'passphrase';
  if (status.usable) return 'safeStorage';
  if (opts.rememberedChoice === 'memory') return 'memory';
  return 'ask';
}

/** Reads the vault passphrase from the environment and removes it, so child processes do not inherit it. */
export function takePassphrase(env: NodeJS.ProcessEnv): string | undefined {
  const value = env[PASSPHRASE_ENV];
  delete env[PASSPHRASE_ENV];
  return value ? value : undefined;
}
