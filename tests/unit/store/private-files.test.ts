/**
 * Files only the user can read: the SQLite stores (and the -wal/-shm SQLite makes beside them),
 * the settings, the vault and the desktop log are 0600 in a 0700 folder, whether they are created
 * now or were left wider by an older version. The umask is set to the common 022 for this file,
 * so a file created without an explicit mode would come out 0644 and fail.
 */
import Database from 'better-sqlite3';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeAdapters } from '../../../electron/app/node-platform';
import { createApp } from '../../../electron/app/services';
import { createMemoryLogger } from '../../../electron/log';
import { createDesktopLogger } from '../../../electron/platform/logging';
import { EdrDb } from '../../../electron/edr/store/edr-db';
import { InventoryDb } from '../../../electron/inventory/store/inventory-db';
import { edrDb, makeScoredHosts } from '../../support/edr-fixtures';

const mode = (p: string) => statSync(p).mode & 0o777;
let umask: number;
beforeAll(() => {
  umask = process.umask(0o022);
});
afterAll(() => {
  process.umask(umask);
});
const roots: string[] = [];
const tmp = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'nb-private-'));
  roots.push(d);
  return d;
};
afterEach(() => {
  for (const d of roots.splice(0)) rmSync(d, { recursive: true, force: true });
});

function writeBoth(data: string) {
  const edr = new EdrDb(path.join(data, 'edr.db'));
  const cycle = edr.beginCycle('conn-1', 'defender', 't1', new Date());
  edr.writeScores(cycle, 'conn-1', makeScoredHosts(20));
  const inventory = new InventoryDb(path.join(data, 'inventory.db'));
  inventory.replaceOrganizations('p1', [{ uuid: 'u1', name: 'Root', parent: null, subscriptionPlan: 'Gold' }], new Date().toISOString());
  return { edr, inventory };
}

const dbFiles = (data: string) => ['edr.db', 'edr.db-wal', 'edr.db-shm', 'inventory.db', 'inventory.db-wal', 'inventory.db-shm'].map((f) => path.join(data, f));

describe('files only the user can read', () => {
  it.each([
    ['a data folder it creates (with its parent)', true],
    ['an empty data folder that exists', false],
  ])('creates both stores with their -wal and -shm 0600 in %s, 0700', (_what, create) => {
    const data = create ? path.join(tmp(), 'nested', 'data') : tmp();
    const { edr, inventory } = writeBoth(data);
    try {
      expect(mode(data)).toBe(0o700);
      if (create) expect(mode(path.dirname(data))).toBe(0o700);
      for (const f of dbFiles(data)) {
        expect(existsSync(f), f).toBe(true);
        expect(mode(f), f).toBe(0o600);
      }
    } finally {
      edr.close();
      inventory.close();
    }
  });

  it('SQLite gives the -wal and -shm it creates the mode of the database file (what the stores rely on)', () => {
    const data = tmp();
    const file = path.join(data, 'plain.db');
    writeFileSync(file, '', { mode: 0o600 });
    const db = new Database(file);
    try {
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1);');
      for (const f of [`${file}-wal`, `${file}-shm`]) expect(mode(f), f).toBe(0o600);
    } finally {
      db.close();
    }
  });

  it('narrows a data folder, databases and -wal/-shm that an older version left readable by others', () => {
    const data = path.join(tmp(), 'data');
    mkdirSync(data, { mode: 0o755 });
    chmodSync(data, 0o755);
    // An older version's stores: created with the umask (0644), their -wal/-shm still there (kept open here, as after a crash).
    const old = ['edr.db', 'inventory.db'].map((f) => {
      const db = new Database(path.join(data, f));
      db.pragma('journal_mode = WAL');
      db.exec('CREATE TABLE leftover (x); INSERT INTO leftover VALUES (1);');
      return db;
    });
    for (const f of dbFiles(data)) expect(mode(f), f).toBe(0o644);

    const { edr, inventory } = writeBoth(data);
    try {
      expect(mode(data)).toBe(0o700);
      for (const f of dbFiles(data)) expect(mode(f), f).toBe(0o600);
    } finally {
      edr.close();
      inventory.close();
      for (const db of old) db.close();
    }
  });

  it('settings and vault (browser mode and the CLI): 0600 when created, and narrowed when found wider', async () => {
    const data = path.join(tmp(), 'data');
    const first = await createNodeAdapters({ dataDir: data, passphrase: 'test-vault-passphrase-1', logger: createMemoryLogger() });
    first.settings.set('ui.theme', 'dark');
    await first.vault.set('secret-1', 'value');
    const files = ['settings.json', 'vault.json'].map((f) => path.join(data, f));
    expect(mode(data)).toBe(0o700);
    for (const f of files) expect(mode(f), f).toBe(0o600);

    chmodSync(data, 0o755);
    for (const f of files) chmodSync(f, 0o644);
    const again = await createNodeAdapters({ dataDir: data, passphrase: 'test-vault-passphrase-1', logger: createMemoryLogger() });
    expect(again.settings.get('ui.theme')).toBe('dark');
    expect(await again.vault.get('secret-1')).toBe('value');
    expect(mode(data)).toBe(0o700);
    for (const f of files) expect(mode(f), f).toBe(0o600);
  });

  it('the desktop log: logs folder 0700, main.log 0600, an older wider log narrowed', () => {
    const data = tmp();
    const logs = path.join(data, 'logs');
    mkdirSync(logs, { mode: 0o755 });
    chmodSync(logs, 0o755);
    writeFileSync(path.join(logs, 'main.log'), '{"old":1}\n', { mode: 0o644 });
    writeFileSync(path.join(logs, 'main.log.1'), '{"older":1}\n', { mode: 0o644 });
    createDesktopLogger(data, 'error');
    expect(mode(logs)).toBe(0o700);
    expect(mode(path.join(logs, 'main.log'))).toBe(0o600);
    expect(mode(path.join(logs, 'main.log.1'))).toBe(0o600);
  });

  it('the whole app in plain Node: every file it makes in a new data folder is 0600, every folder 0700', async () => {
    const data = path.join(tmp(), 'northbound');
    const adapters = await createNodeAdapters({ dataDir: data, passphrase: 'test-vault-passphrase-1', logger: createMemoryLogger(), demoPorts: { basic: 0, oauth: 0 } });
    const app = await createApp(adapters, { openDemo: false, demoEdr: false });
    try {
      adapters.settings.set('ui.theme', 'dark');
      await adapters.vault.set('secret-1', 'value');
      const cycle = edrDb(app.edr.store).beginCycle('conn-1', 'defender', 't1', new Date());
      edrDb(app.edr.store).writeScores(cycle, 'conn-1', makeScoredHosts(5));
      const seen: string[] = [];
      const walk = (dir: string) => {
        expect(mode(dir), dir).toBe(0o700);
        for (const e of readdirSync(dir, { withFileTypes: true })) {
          const p = path.join(dir, e.name);
          if (e.isDirectory()) walk(p);
          else {
            seen.push(path.relative(data, p));
            expect(mode(p), p).toBe(0o600);
          }
        }
      };
      walk(data);
      expect(seen).toEqual(expect.arrayContaining(['settings.json', 'vault.json', 'edr.db', 'edr.db-wal', 'edr.db-shm', 'inventory.db', 'inventory.db-wal', 'inventory.db-shm']));
    } finally {
      await app.shutdown();
    }
  });
});
