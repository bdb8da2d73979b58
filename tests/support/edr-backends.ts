/**
 * What the EDR store's contract suites share (issue 24.1): both backends opened alike, with what
 * only each one's tables tell, and the cycles and hosts the suites write.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect } from 'vitest';
import type { RiskBand, ScoredHost } from '../../shared/model/edr';
import { COLUMN_KEYS, emptyBandCounts, type ZtaColumns } from '../../shared/model/zta';
import { openPgEdrStore } from '../../electron/edr/store/edr-pg';
import type { EdrStore } from '../../electron/edr/store/edr-store';
import { openEdrStore } from '../../electron/edr/store/sqlite-edr-store';
import { edrDb } from './edr-fixtures';
import type { usePostgres } from './postgres';

/** A backend's store, a second store on the same data (another process), and what only its tables tell. */
export interface OpenedEdrStore {
  store: EdrStore;
  second(): Promise<EdrStore>;
  /** History rows (score_changes) a cycle added. */
  historyRows(cycleId: number): Promise<number>;
  /** Staged rows of a running cycle that rewrite their host (changed or new), and all its staged rows. */
  staged(cycleId: number): Promise<{ full: number; all: number }>;
  /** The command line's flags naming this store (`zta export`). */
  source: string[];
}

export const bandOf = (score: number): RiskBand => (score > 80 ? 'High Risk' : score > 60 ? 'Suspicious' : score > 40 ? 'Moderate Risk' : score > 20 ? 'Low Risk' : 'Trustworthy');
export const moved = (h: ScoredHost, score: number): ScoredHost => ({ ...h, score, band: bandOf(score) });
export const seenLater = (h: ScoredHost, lastSeen: string): ScoredHost => ({ ...h, host: { ...h.host, lastSeen, defender: { ...h.host.defender!, lastSeen } } });
export const emptyZtaColumns = () => Object.fromEntries(COLUMN_KEYS.map((k) => [k, []])) as unknown as ZtaColumns;
export const at = (minute: number) => new Date(Date.UTC(2026, 10, 22, 0, minute));

/** One completed cycle of `hosts` (as the scheduler commits it: staged in batches of `batch`, then committed). */
export async function cycle(s: EdrStore, hosts: readonly ScoredHost[], minute: number, connectorId = 'conn-1', batch = 40): Promise<number> {
  const id = await s.beginCycle(connectorId, 'defender', connectorId === 'conn-1' ? 't1' : 't2', at(minute));
  for (let i = 0; i < hosts.length; i += batch) await s.stageScores(id, connectorId, hosts.slice(i, i + batch));
  expect(await s.commitCycle(id, at(minute + 1))).toBe(new Set(hosts.map((h) => h.host.hostId)).size);
  return id;
}

export const bandsOf = (hosts: readonly ScoredHost[]) => {
  const b = emptyBandCounts();
  for (const h of hosts) b[h.band] += 1;
  return b;
};

/**
 * The EDR store's two backends for a test file: edr.db in a temp folder (removed after the file's
 * tests), and a fresh database of the file's private cluster (`usePostgres()`, called by the file).
 * `countCap`: the windows' count of a search's matches stops past this many (C-79; the store's default unless given).
 */
export function edrBackends(pg: ReturnType<typeof usePostgres>): Array<[string, (opts?: { countCap?: number }) => Promise<OpenedEdrStore>]> {
  const dirs: string[] = [];
  afterAll(() => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });
  return [
  [
    'SQLite',
    async (opts = {}) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-edr-contract-'));
      dirs.push(dir);
      const file = path.join(dir, 'edr.db');
      const store = openEdrStore(file, opts);
      const count = (sql: string, ...args: unknown[]) => {
        const raw = new Database(file, { readonly: true });
        try {
          return raw.prepare(sql).pluck().get(...args) as number;
        } finally {
          raw.close();
        }
      };
      return {
        store,
        second: async () => openEdrStore(file, { guest: true }),
        source: ['--data-dir', dir],
        historyRows: async (id) => count('SELECT COUNT(*) FROM score_changes WHERE cycle_id = ?', id),
        staged: async (id) => ({ full: edrDb(store).stagedChanged(id), all: edrDb(store).stagedCount(id) }),
      };
    },
  ],
  [
    'PostgreSQL',
    async (opts = {}) => {
      const db = await pg.freshDatabase('edr');
      const store = await openPgEdrStore(db.pool, opts);
      const count = async (sql: string, ...args: unknown[]) => Number((await db.pool.query<{ n: string }>(sql, args)).rows[0]!.n);
      return {
        store,
        second: () => openPgEdrStore(pg.pool(db.name)),
        source: ['--database-url', db.url],
        historyRows: (id) => count('SELECT COUNT(*) AS n FROM edr.score_changes WHERE cycle_id = $1', id),
        staged: async (id) => ({
          full: await count('SELECT COUNT(*) AS n FROM edr.staged_scores WHERE cycle_id = $1', id),
          all: await store.stagedHosts(id),
        }),
      };
    },
  ],
];
}
