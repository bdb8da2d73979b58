/**
 * The ZTA export streamed from the store (issue 25.3, C-86), on both backends
 * (tests/support/edr-backends.ts): `exportHosts` through the exporter writes what the in-memory export
 * wrote over the snapshot the same store gives (`rowsInOrder`, tests/support/zta-export-snapshot.ts),
 * for filters, searches and bands, with the connectors in the views' order (not their IDs') and a
 * connector not shown; the store is read a batch at a time and never more than a batch ahead of the
 * file; a cancel mid-stream leaves no file and ends the read.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import type { ExportJob } from '../../../shared/contract-zta';
import { exportFileName, rowsInOrder, type ZtaConnector, type ZtaFilter } from '../../../shared/model/zta';
import type { EdrStore, HostExportQuery } from '../../../electron/edr/store/edr-store';
import { ZtaExports } from '../../../electron/edr/zta-export';
import { storeExportSource } from '../../../electron/edr/zta-export-source';
import { ztaSnapshot } from '../../../electron/edr/zta-snapshot';
import { openPostgres } from '../../../electron/store/postgres';
import { edrBackends } from '../../support/edr-backends';
import { usePostgres } from '../../support/postgres';
import { writeWindowSnapshot } from '../../support/zta-window-fixtures';
import { exportText, snapshotExportSource } from '../../support/zta-export-snapshot';

const backends = edrBackends(usePostgres());

const FILTERS: ZtaFilter[] = [
  {},
  { customer: 'cust-b' },
  { customer: 'no-such-customer' },
  { platform: 'Mac' },
  { vendor: 'falcon' },
  { connector: 'conn-c' },
  { band: 'High Risk' },
  { band: 'Not assessed' },
  { q: 'FINANCE' },
  { q: 'shared-1', band: 'Low Risk' },
  { q: '_1%' },
  { customer: 'Cust-Upper', platform: 'Linux', q: 'e' },
];

const EXPORTED_AT = new Date('2026-11-25T09:00:00Z');
const dirs: string[] = [];
afterEach(() => vi.restoreAllMocks());
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});
const tempDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'nb-export-stream-'));
  dirs.push(d);
  return d;
};

/** The connectors as the views list them, in the order given (not the IDs' order), named. */
async function shown(s: EdrStore, order: readonly string[]): Promise<ZtaConnector[]> {
  const latest = new Map((await s.latestCycles()).map((l) => [l.connectorId, l]));
  const out: ZtaConnector[] = [];
  for (const id of order) {
    const l = latest.get(id)!;
    const c = (await s.cycle(l.cycleId))!;
    out.push({ connectorId: id, name: `Tenant ${id.toUpperCase()}`, vendor: c.vendor, tenantId: c.tenantId, cycleId: l.cycleId, asOf: l.finishedAt, kind: l.kind, hosts: l.hosts, health: 'online', lastAttemptAt: null, lastError: null });
  }
  return out;
}

/** The store with `exportHosts` counted: each batch's size, and the rows it answered so far. */
function counted(s: EdrStore) {
  const batches: number[] = [];
  const log: Array<{ answered: number }> = [];
  let ended = 0;
  const store: EdrStore = Object.create(s) as EdrStore;
  store.exportHosts = async function* (q: HostExportQuery) {
    try {
      for await (const b of s.exportHosts(q)) {
        batches.push(b.length);
        log.push({ answered: batches.reduce((a, n) => a + n, 0) });
        yield b;
      }
    } finally {
      ended += 1;
    }
  };
  store.appendRows = () => Promise.reject(new Error('the export read the whole snapshot'));
  return { store, batches, ended: () => ended };
}

/**
 * Rows the driver hands over while `work` runs, one count per read: SQLite's statement iterator
 * (rows stepped), PostgreSQL's FETCH answers.
 */
async function driverReads<T>(backend: string, onRead: (rows: number) => void, work: () => Promise<T>): Promise<T> {
  if (backend === 'SQLite') {
    const probe = new Database(':memory:');
    const proto = Object.getPrototypeOf(probe.prepare('SELECT 1')) as { iterate: (...a: unknown[]) => IterableIterator<unknown> };
    probe.close();
    const iterate = proto.iterate;
    vi.spyOn(proto, 'iterate').mockImplementation(function (this: unknown, ...args: unknown[]) {
      const it = iterate.apply(this, args);
      const next = it.next.bind(it);
      it.next = () => {
        const r = next();
        if (!r.done) onRead(1);
        return r;
      };
      return it;
    });
  } else {
    const query = pg.Client.prototype.query as (...a: unknown[]) => unknown;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: unknown, ...args: unknown[]) {
      const r = query.apply(this, args);
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string }).text;
      if (text?.startsWith('FETCH') && r instanceof Promise) return r.then((res: { rows: unknown[] }) => (onRead(res.rows.length), res));
      return r;
    } as never);
  }
  return work();
}

describe.each(backends)('ZTA export streamed from the store: %s', (backend, open) => {
  it('writes the bytes the in-memory export wrote over the snapshot, for filters, searches and bands, ties in the views’ connector order', async () => {
    const { store: s } = await open();
    await writeWindowSnapshot(s);
    // Not the IDs' order: hosts alike in score and name across conn-a and conn-c come in this order.
    for (const order of [['conn-c', 'conn-a', 'conn-b'], ['conn-b', 'conn-a']]) {
      const connectors = await shown(s, order);
      const snap = await ztaSnapshot(s, connectors);
      const source = storeExportSource({ store: s, connectors: async () => connectors, batch: 7 });
      for (const filter of FILTERS) {
        const want = rowsInOrder(snap, filter);
        expect(await source.count(filter, connectors), JSON.stringify([order, filter])).toBe(want.length);
        for (const format of ['csv', 'json'] as const) {
          const got = await exportText(source, format, filter, EXPORTED_AT);
          expect(got, JSON.stringify([order, filter, format])).toBe(await exportText(snapshotExportSource(snap), format, filter, EXPORTED_AT));
        }
      }
      // Meaningful: some filters choose some hosts but not all, and ties across connectors exist.
      expect(rowsInOrder(snap, { q: 'FINANCE' }).length).toBeGreaterThan(10);
      expect(rowsInOrder(snap, { q: 'shared-1', band: 'Low Risk' }).length).toBeGreaterThan(0);
    }
    const snap = await ztaSnapshot(s, await shown(s, ['conn-c', 'conn-a', 'conn-b']));
    const rows = rowsInOrder(snap, {});
    const ties = rows.filter((r, k) => k > 0 && snap.rows.hostname[r] === snap.rows.hostname[rows[k - 1]!] && snap.rows.score[r] === snap.rows.score[rows[k - 1]!] && snap.rows.connector[r] !== snap.rows.connector[rows[k - 1]!]);
    expect(ties.length).toBeGreaterThan(0);
    await s.close();
  });

  it('reads the store a batch at a time, never more than a batch ahead of the file, and never the whole snapshot', async () => {
    const { store: s } = await open();
    await writeWindowSnapshot(s, [400, 300, 200]);
    const connectors = await shown(s, ['conn-a', 'conn-b', 'conn-c']);
    const total = 392 + 292 + 192;
    const c = counted(s);
    const dir = tempDir();
    const written: number[] = [];
    const exports = new ZtaExports({
      source: storeExportSource({ store: c.store, connectors: async () => connectors, batch: 50 }),
      destination: async (_id, name) => ({ file: path.join(dir, name), name }),
      onProgress: (job) => void (job.state === 'running' && written.push(job.done)),
    });
    let read = 0;
    let ahead = 0;
    const end = await driverReads(
      backend,
      (n) => {
        read += n;
        // Rows the driver handed over that the file does not hold yet.
        ahead = Math.max(ahead, read - (written.at(-1) ?? 0));
      },
      async () => exports.finished((await exports.start('csv', {})).jobId),
    );
    expect(end).toMatchObject({ state: 'done', done: total, total });
    expect(read).toBe(total);
    expect(ahead).toBeLessThanOrEqual(50);
    expect(c.batches).toEqual([...Array.from({ length: Math.floor(total / 50) }, () => 50), total % 50]);
    expect(written).toEqual(c.batches.map((_, k) => c.batches.slice(0, k + 1).reduce((a, n) => a + n, 0)));
    expect(c.ended()).toBe(1);
    const snap = await ztaSnapshot(s, connectors);
    expect(readdirSync(dir)).toEqual([exportFileName(snap, {}, 'csv')]);
    const file = readFileSync(path.join(dir, exportFileName(snap, {}, 'csv')), 'utf8');
    expect(file).toBe(await exportText(snapshotExportSource(snap), 'csv', {}, EXPORTED_AT));
    await s.close();
  });

  it('a cancel mid-stream ends cancelled, leaves no file, and ends the store’s read', async () => {
    const opened = await open();
    const s = opened.store;
    await writeWindowSnapshot(s, [400, 300, 200]);
    const connectors = await shown(s, ['conn-a', 'conn-b', 'conn-c']);
    const c = counted(s);
    const dir = tempDir();
    const events: ExportJob[] = [];
    const control: { cancel?: () => void } = {};
    const exports = new ZtaExports({
      source: storeExportSource({ store: c.store, connectors: async () => connectors, batch: 20 }),
      destination: async (_id, name) => ({ file: path.join(dir, name), name }),
      onProgress: (job) => {
        events.push(job);
        if (job.done >= 60) control.cancel?.();
      },
    });
    for (const format of ['csv', 'json'] as const) {
      const job = await exports.start(format, { band: 'Trustworthy' });
      control.cancel = () => exports.cancel(job.jobId);
      const end = await exports.finished(job.jobId);
      expect(end.state).toBe('cancelled');
      expect(end.done).toBeLessThan(end.total);
      expect(readdirSync(dir)).toEqual([]);
    }
    expect(c.ended()).toBe(2);
    expect(c.batches.reduce((a, n) => a + n, 0)).toBeLessThan(2 * 100);
    // The read is over: the store answers and commits as before (PostgreSQL: no connection left in a transaction).
    expect((await s.hostCounts({ filter: {} })).total).toBe(392 + 292 + 192);
    if (backend === 'PostgreSQL') {
      const pool = openPostgres({ url: opened.source[1]!, max: 1 });
      try {
        const r = await pool.query<{ n: string }>(`SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND state LIKE 'idle in transaction%'`);
        expect(Number(r.rows[0]!.n)).toBe(0);
      } finally {
        await pool.end();
      }
    }
    await s.close();
  });
});
