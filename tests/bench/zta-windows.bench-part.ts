/**
 * The ZTA table served in windows by the store (issue 25.3): `hostWindow` and `hostCounts` over
 * 100,000 hosts in SQLite and 1,000,000 in PostgreSQL. Timed: the first window (default order, 100
 * rows, with its total), each keystroke of a search typed letter by letter (a window and the
 * counts, asked together as the table would), a sort by every key (the first window), and the
 * counts (all hosts, and one customer). Each figure is the median of `repeat` runs, with the worst;
 * a keystroke is also timed apart the first time it is typed (the store keeps counts, C-77).
 *
 * Loading: SQLite through the store's own staging and commit (benchHost's Defender hosts, 4
 * connectors of 25,000); PostgreSQL by bulk SQL (generate_series into hosts, host_seen,
 * host_details, one completed cycle per connector and its cycle_bands, as a commit leaves them;
 * 10 connectors of 100,000; each host last seen at a second of the hour before the cycle, as
 * Falcon reports it: about 280 hosts a second; health, AV and onboarding varied too, so that a
 * what-if's slider moves hosts between bands), then ANALYZE: staging 1,000,000 hosts through the store would take
 * longer than the whole part may. The cluster is a private one (tests/support/pg-cluster.ts,
 * `durable`), on the same machine as the bench.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ScoredHost } from '../../shared/model/edr';
import type { HostWindowQuery, ZtaSort } from '../../shared/model/zta-window';
import type { ZtaFilter } from '../../shared/model/zta';
import { openEdrStore } from '../../electron/edr/store/sqlite-edr-store';
import { openPgEdrStore } from '../../electron/edr/store/edr-pg';
import type { EdrStore } from '../../electron/edr/store/edr-store';
import { openPostgres } from '../../electron/store/postgres';
import { startPostgres } from '../support/pg-cluster';
import { benchHost } from './zta-store.bench-part';

export interface Timing {
  medianMs: number;
  worstMs: number;
}

export interface WindowsBench {
  backend: string;
  hosts: number;
  loadMs: number;
  first: Timing & { total: number };
  /**
   * Per search prefix: a window and the counts asked together, typed the first time (`firstMs`: the
   * counts computed) and again (`again`: the counts the store kept for the same newest cycles, C-77).
   */
  keystrokes: Array<{ q: string; total: number; exact: boolean; firstMs: number; again: Timing }>;
  sorts: Array<Timing & { sort: string }>;
  counts: Timing;
  customerCounts: Timing;
  /** Page 500 of 100 rows in the default order (OFFSET 50,000). */
  deepPage: Timing;
}

export const SEARCH_PREFIXES = ['w', 'ws', 'ws-', 'ws-4', 'ws-42', 'ws-421', 'ws-4213', 'ws-42137'];
/** The first four since the part began; the others since the sort indexes (C-80). `customer desc` with the table's order of customers (by name: here cust-6 … cust-0). */
const SORTS: ReadonlyArray<ZtaSort & { customerOrder?: readonly string[] }> = [
  { key: 'score', desc: false },
  { key: 'hostname', desc: true },
  { key: 'lastSeen', desc: true },
  { key: 'customer', desc: false },
  { key: 'score', desc: true },
  { key: 'band', desc: true },
  { key: 'band', desc: false },
  { key: 'customer', desc: true, customerOrder: ['cust-6', 'cust-5', 'cust-4', 'cust-3', 'cust-2', 'cust-1', 'cust-0'] },
  // Every other column the table sorts by (C-104), each both ways.
  { key: 'lastSeen', desc: false },
  ...(['riskLevel', 'exposure', 'health', 'avStatus', 'cves', 'sensor', 'platform', 'vendor', 'osAssessment', 'sensorAssessment', 'overallAssessment'] as const).flatMap((key) => [
    { key, desc: false },
    { key, desc: true },
  ]),
];

async function time<T>(repeat: number, run: () => Promise<T>): Promise<Timing & { last: T }> {
  const ms: number[] = [];
  let last: T | undefined;
  for (let i = 0; i < repeat; i++) {
    const t = performance.now();
    last = await run();
    ms.push(performance.now() - t);
  }
  ms.sort((a, b) => a - b);
  return { medianMs: ms[Math.floor(ms.length / 2)]!, worstMs: ms[ms.length - 1]!, last: last! };
}

async function measure(store: EdrStore, backend: string, hosts: number, loadMs: number, repeat: number): Promise<WindowsBench> {
  const win = (q: Partial<HostWindowQuery>) => store.hostWindow({ filter: {}, offset: 0, limit: 100, ...q });
  const first = await time(repeat, () => win({}));
  const keystrokes = [];
  for (const q of SEARCH_PREFIXES) {
    const filter: ZtaFilter = { q };
    const key = () => Promise.all([win({ filter }), store.hostCounts({ filter })]);
    const first = await time(1, key);
    const again = await time(repeat, key);
    // `exact` is undefined on a store from before C-79 (every total exact then).
    keystrokes.push({ q, total: first.last[0].total, exact: first.last[0].exact ?? true, firstMs: first.medianMs, again: { medianMs: again.medianMs, worstMs: again.worstMs } });
  }
  const sorts = [];
  for (const { customerOrder, ...sort } of SORTS) {
    const t = await time(repeat, () => win({ sort, customerOrder: customerOrder && [...customerOrder] }));
    sorts.push({ sort: `${sort.key} ${sort.desc ? 'desc' : 'asc'}${customerOrder ? ' (an order of customers)' : ''}`, medianMs: t.medianMs, worstMs: t.worstMs });
  }
  const counts = await time(repeat, () => store.hostCounts({ filter: {} }));
  const customerCounts = await time(repeat, () => store.hostCounts({ filter: { customer: 'cust-3' } }));
  const deepPage = await time(repeat, () => win({ offset: 50_000 }));
  const strip = <T extends Timing>(t: T): Timing => ({ medianMs: t.medianMs, worstMs: t.worstMs });
  return { backend, hosts, loadMs, first: { ...strip(first), total: first.last.total }, keystrokes, sorts, counts: strip(counts), customerCounts: strip(customerCounts), deepPage: strip(deepPage) };
}

/** 100,000 Defender hosts (4 connectors) through the SQLite store's staging and commit. */
export async function benchZtaWindowsSqlite(hosts: number, repeat = 5): Promise<WindowsBench> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-bench-zta-windows-'));
  const store = openEdrStore(path.join(dir, 'edr.db'));
  try {
    const t = performance.now();
    const connectors = 4;
    const per = Math.ceil(hosts / connectors);
    const at = new Date(Date.UTC(2026, 10, 24, 8));
    for (let c = 0; c < connectors; c++) {
      const id = await store.beginCycle(`bench-${c}`, 'defender', `tenant-${c}`, at);
      for (let i = c * per; i < Math.min(hosts, (c + 1) * per); i += 2_000) {
        const batch: ScoredHost[] = [];
        for (let j = i; j < Math.min(hosts, (c + 1) * per, i + 2_000); j++) batch.push(benchHost(j, 0, at.toISOString()));
        await store.stageScores(id, `bench-${c}`, batch);
      }
      await store.commitCycle(id, new Date(at.getTime() + 60_000));
    }
    const loadMs = performance.now() - t;
    return await measure(store, 'SQLite', hosts, loadMs, repeat);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * `hosts` hosts in 10 connectors, by bulk SQL (see the file's comment), like benchHost's: hostnames ws-<i>.corp.example, 7 customers, 3 % not assessed.
 * `ids`: the connectors' IDs (one per connector; registered ones), else bench-0 … bench-<connectors - 1>.
 */
export const BULK = (hosts: number, connectors: number, ids?: readonly string[]) => {
  const idOf = (n: string) => (ids ? `(ARRAY[${ids.map((id) => `'${id.replaceAll("'", "''")}'`).join(', ')}])[1 + ${n}]` : `'bench-' || ${n}`);
  return `
INSERT INTO edr.cycles (connector_id, vendor, tenant_id, started_at, finished_at, status, kind, hosts)
  SELECT ${idOf('c')}, 'defender', 'tenant-' || c, '2026-11-24T08:00:00Z', '2026-11-24T08:01:00Z', 'completed', 'poll', ${hosts / connectors}
  FROM generate_series(0, ${connectors - 1}) c;
INSERT INTO edr.hosts (connector_id, host_id, vendor, hostname, customer_id, platform, os_version, score, band, digest,
    risk_level, exposure, health, av_status, onboarding, critical_cves, cve_count, max_cvss)
  SELECT ${idOf(`(i % ${connectors})`)}, lpad(to_hex((i::bigint * 2654435761) % 4294967296), 8, '0') || lpad(to_hex(i), 32, '0'), 'defender',
    'ws-' || i || '.corp.example', 'cust-' || (i % 7), CASE WHEN i % 5 = 0 THEN 'Mac' WHEN i % 11 = 0 THEN 'Linux' ELSE 'Windows' END, '10.0.22631',
    s.score, CASE WHEN i % 33 = 7 THEN 'Not assessed' WHEN s.score > 80 THEN 'High Risk' WHEN s.score > 60 THEN 'Suspicious' WHEN s.score > 40 THEN 'Moderate Risk' WHEN s.score > 20 THEN 'Low Risk' ELSE 'Trustworthy' END, 'bulk',
    (ARRAY['Low','Medium','High'])[1 + i % 3], (ARRAY['Low','Medium','High'])[1 + (i / 4) % 3],
    (ARRAY['Active','Inactive','ImpairedCommunication','NoSensorData','NoSensorDataImpairedCommunication','Unknown'])[1 + (i / 7) % 6],
    (ARRAY['Updated','NotUpdated','Disabled','NotReporting','NotSupported','Unknown'])[1 + (i / 11) % 6],
    (ARRAY['Onboarded','CanBeOnboarded','Unsupported','InsufficientInfo'])[1 + (i / 13) % 4], i % 3, 4 + i % 9, 9.8
  FROM generate_series(0, ${hosts - 1}) i, LATERAL (SELECT ((i::bigint * 7919) % 10001) / 100.0 AS score) s;
INSERT INTO edr.host_seen (hid, last_cycle, last_seen, scored_at)
  SELECT h.hid, c.id, to_char(timestamp '2026-11-24 07:00:00' + ((h.hid * 7919) % 3600) * interval '1 second', 'YYYY-MM-DD"T"HH24:MI:SS".000Z"'), '2026-11-24T08:00:00.000Z'
  FROM edr.hosts h JOIN edr.cycles c ON c.connector_id = h.connector_id;
INSERT INTO edr.host_details (hid, record_json, contributions_json) SELECT hid, '{}', '[]' FROM edr.hosts;
INSERT INTO edr.cycle_bands (cycle_id, customer_id, platform, band, hosts, score_sum)
  SELECT c.id, h.customer_id, h.platform, h.band, COUNT(*), SUM(h.score) FROM edr.hosts h JOIN edr.cycles c ON c.connector_id = h.connector_id
  GROUP BY c.id, h.customer_id, h.platform, h.band;
ANALYZE edr.hosts; ANALYZE edr.host_seen; ANALYZE edr.cycles; ANALYZE edr.cycle_bands;`;
};

/** 1,000,000 hosts in PostgreSQL by bulk SQL, then the same questions. */
export async function benchZtaWindowsPg(hosts: number, repeat = 5): Promise<WindowsBench> {
  const cluster = await startPostgres({ durable: true });
  const pool = openPostgres({ url: cluster.url, max: 4 });
  try {
    const store = await openPgEdrStore(pool);
    const t = performance.now();
    await pool.query(BULK(hosts, 10));
    const loadMs = performance.now() - t;
    return await measure(store, 'PostgreSQL', hosts, loadMs, repeat);
  } finally {
    await pool.end();
    await cluster.stop();
  }
}
