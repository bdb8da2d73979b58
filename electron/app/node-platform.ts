/**
 * Platform adapters for plain Node (browser mode, CLI, tests): `conf` settings and a vault that
 * is either encrypted with a passphrase (AES-256-GCM, scrypt key) or kept in memory only.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../log';
import { openConfSettings } from '../store/settings';
import { createMemoryVault, createPassphraseCipher, openVault } from '../store/vault';
import { ensurePrivateDir } from '../store/files';
import type { PlatformAdapters } from './ports';

export interface NodeAdapterOptions {
  dataDir: string;
  /** Without a passphrase, secrets live in memory only and are gone when the process ends. */
  passphrase?: string | undefined;
  logger: Logger;
  mode?: 'desktop' | 'browser';
  demoPorts?: { basic: number; oauth: number };
}

export function packageVersion(): string {
  try {
    const file = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../package.json');
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

export async function createNodeAdapters(o: NodeAdapterOptions): Promise<PlatformAdapters> {
  await ensurePrivateDir(o.dataDir);
  const vault = o.passphrase
    ? await openVault({ dataDir: o.dataDir, cipher: createPassphraseCipher(o.passphrase), logger: o.logger.child('vault') })
    : createMemoryVault(undefined, o.logger.child('vault'));
  return {
    mode: o.mode ?? 'browser',
    dataDir: o.dataDir,
    vault,
    settings: openConfSettings(o.dataDir, o.logger.child('settings')),
    logger: o.logger,
    version: packageVersion(),
    ...(o.demoPorts ? { demoPorts: o.demoPorts } : {}),
  };
}
