/**
 * The Alarms page and the Overview over a big alarm store (issue 25.3): 5,000,000 stored alarm
 * changes (500,000 alarms of 10 changes each, over the 24 hours up to the seed's end) in the SQLite
 * store (alarms.db) and in the PostgreSQL one (a private cluster, `durable`), seeded by bulk SQL in
 * chunks (a chunk at a time, so the deadline is checked between them), then timed through the real
 * `AlarmService` and the real alarm handlers behind the real router (validation of the request and
 * of the answer included), as the page asks for its first view: the first window of the list (100
 * rows, the page's `readWindow`), with the page's default filter (open alarms), with no filter at
 * all, with a filter and a search (broad and narrow), the counters (`alarms.summary`), the chart
 * (`alarms.rate`, 60 minutes) and the source's status (`alarms.status`, a connection whose source
 * is not running: what a console reading a fleet's store sees), and the five asked together.
 *
 * The service's clock is the seed's end (`now`), so the chart's hour is the seeded one (about
 * 208,000 changes in it). Each figure: the first call, then the median and worst of `repeat`.
 * Stores as a desk and a collector keep them are capped at 2,000,000 changes (MN-AL11, retention):
 * 5,000,000 is past what retention lets either store hold, so these are upper bounds (C-81).
 *
 * The Overview over the fleet's PostgreSQL (`benchOverviewPg`): the app's Overview reads the desk's
 * files (createApp opens alarms.db, edr.db and inventory.db in its data folder; C-83), so the real
 * `OverviewService` is built here over the PostgreSQL stores — the alarm store above and the EDR
 * store at 1,000,000 hosts seeded by zta-windows' bulk SQL — with the desk's inventory store (empty:
 * no device list was read) and no registered connector (a team's store names its connectors from
 * their cycles, `everyStored`, as `zta export --database-url` does); `overview.get` is timed, and
 * each store call it makes apart.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AlarmFilter } from '../../shared/model/alarms';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { AlarmService } from '../../electron/alarms/service';
import { openAlarmStore } from '../../electron/alarms/store/sqlite-alarm-store';
import { AlarmDb } from '../../electron/alarms/store/alarms-db';
import { RECOUNT_SQL } from '../../electron/alarms/store/alarms-recount';
import { openPgAlarmStore } from '../../electron/alarms/store/pg-alarm-store';
import type { AlarmStore } from '../../electron/alarms/store/alarm-store';
import { createAlarmHandlers } from '../../electron/app/alarm-handlers';
import { createOverviewHandlers } from '../../electron/app/overview-handlers';
import { OverviewService, OVERVIEW_TREND_CYCLES } from '../../electron/app/overview';
import { createRouter, type Handlers, type Router } from '../../electron/app/router';
import { ZtaService } from '../../electron/edr/zta-service';
import { openPgEdrStore } from '../../electron/edr/store/edr-pg';
import { openInventoryStore } from '../../electron/inventory/store/sqlite-inventory-store';
import { createMemoryLogger } from '../../electron/log';
import { openPostgres, type PgPool } from '../../electron/store/postgres';
import { readWindow } from '../../renderer/api/alarms';
import { startPostgres } from '../support/pg-cluster';
import { BULK } from './zta-windows.bench-part';

export const SOURCE = 'bench-node';
/** The seed: alarms, changes per alarm, the span their times cover (ending at the seed's end). NB_BENCH_ALARM_WINDOW_ALARMS sets fewer alarms (a quick run). */
export const SEED = { alarms: Number(process.env.NB_BENCH_ALARM_WINDOW_ALARMS ?? 500_000), changesPerAlarm: 10, spanMs: 86_400_000 };

export interface Timing {
  firstMs: number;
  medianMs: number;
  worstMs: number;
  /** This process's CPU time over the same calls, the median (SQLite reads here; for PostgreSQL the server's work is not in it): on a loaded machine, what the call costs beside how long it waited. */
  cpuMedianMs: number;
}

export interface AlarmWindowFigure extends Timing {
  what: string;
  /** What the answer held (rows of the window and its total, organizations, buckets…). */
  answer: string;
}

export interface AlarmWindowBench {
  backend: string;
  changes: number;
  alarms: number;
  seedMs: number;
  figures: AlarmWindowFigure[];
}

/** Out of time: the part stops and says so. */
export class Deadline {
  constructor(readonly atMs: number) {}
  check(what: string): void {
    if (Date.now() > this.atMs) throw new Error(`alarms-window: the deadline passed before ${what}`);
  }
}

const SEVERITY = (i: string) => `(CASE ${i} % 5 WHEN 0 THEN 'critical' WHEN 1 THEN 'major' WHEN 2 THEN 'minor' WHEN 3 THEN 'warning' ELSE 'indeterminate' END)`;
const TYPE = (i: string) => `(CASE ${i} % 7 WHEN 0 THEN 'interface-down' WHEN 1 THEN 'bgp-peer-down' WHEN 2 THEN 'ipsec-tunnel-down' WHEN 3 THEN 'high-cpu' WHEN 4 THEN 'disk-full' WHEN 5 THEN 'config-change' ELSE 'link-flap' END)`;

/** What differs between SQLite and PostgreSQL in the seed. */
interface Dialect {
  /** A FROM item of the integers from…to as column `name`. */
  series(name: string, from: number, to: number): string;
  lpad(x: string): string;
  bool(x: string): string;
  table(t: 'alarms' | 'changes' | 'handlings' | 'sources'): string;
  user: string;
}

/**
 * The seed's statements: alarm `i` (aid i + 1) on device bench-device-(i mod 20,000) in
 * Org (i mod 200), object vni-0/i, one of 7 types and 13 problems, severity by i mod 5; every fourth
 * one (i mod 4 = 3) cleared, every tenth acknowledged. Its change k (0…9) at
 * end − span + (k·A + i)·span / (A·K): the changes interleave evenly over the span, seq in time
 * order; change k alternates the alarm's severity and a clear, the last one is the alarm's state.
 */
function seedSql(d: Dialect, source: string, endMs: number) {
  const { alarms: A, changesPerAlarm: K, spanMs } = SEED;
  const t0 = endMs - spanMs;
  const ev = (k: string) => `(${t0} + (${k} * ${A} + i) * ${spanMs} / ${A * K})`;
  const cleared = '(i % 4 = 3)';
  const sev = SEVERITY('i');
  const last = ev(String(K - 1));
  const state = (k: string, what: (severity: string) => string) => `CASE WHEN ${k} = ${K - 1} THEN (CASE WHEN ${cleared} THEN 'cleared' ELSE ${what(sev)} END) WHEN ${k} % 2 = 1 THEN 'cleared' ELSE ${what(sev)} END`;
  return {
    alarms: `INSERT INTO ${d.table('alarms')} (aid, source, device, device_name, org, object, type, specific_problem, severity, cleared, text, last_change_ms, handling_state, handling_user, handling_ms, handling_description, last_seq)
      SELECT i + 1, '${source}', 'bench-device-' || (i % 20000), 'bench-device-' || (i % 20000), 'Org ' || ${d.lpad('i % 200')}, 'vni-0/' || i, ${TYPE('i')}, 'problem-' || (i % 13),
        ${state(String(K - 1), (x) => x)}, ${d.bool(cleared)}, ${state(String(K - 1), (x) => `${x} || ' on vni-0/' || i`)}, ${last},
        CASE WHEN i % 10 = 0 THEN 'ack' END, CASE WHEN i % 10 = 0 THEN 'bench' END, CASE WHEN i % 10 = 0 THEN ${last} + 1 END, CASE WHEN i % 10 = 0 THEN '' END, i + 1
      FROM ${d.series('i', 0, A - 1)}`,
    /** Changes k of every alarm, for k in [from, to]; seq = k·A + i + 1 (time order: k outermost). */
    changes: (from: number, to: number) => `INSERT INTO ${d.table('changes')} (seq, aid, event_ms, severity, text, message_id, stored_ms)
      SELECT k * ${A} + i + 1, i + 1, ${ev('k')}, ${state('k', (x) => x)}, ${state('k', (x) => `${x} || ' on vni-0/' || i`)}, NULL, ${ev('k')}
      FROM ${d.series('k', from, to)} CROSS JOIN ${d.series('i', 0, A - 1)}`,
    handlings: `INSERT INTO ${d.table('handlings')} (aid, at_ms, state, ${d.user}, description, message_id, stored_ms)
      SELECT i + 1, ${last} + 1, 'ack', 'bench', '', NULL, ${last} + 1 FROM ${d.series('i', 0, A - 1)} WHERE i % 10 = 0`,
    sources: `INSERT INTO ${d.table('sources')} (source, cursor_ms, last_backfill_ms, last_backfill_new, last_stored_ms, last_lag_ms) VALUES ('${source}', ${endMs}, ${endMs}, 0, ${endMs}, NULL)`,
  };
}

/** 5,000,000 changes into alarms.db by bulk SQL (recursive CTEs), a value of k at a time; then ANALYZE. */
export function seedSqlite(file: string, endMs: number, deadline: Deadline): number {
  const t = performance.now();
  const db = new AlarmDb(file);
  // A big page cache for the load only (the unique (aid, event_ms) index is written out of order).
  db.db.pragma('cache_size = -1000000');
  const sql = seedSql(
    {
      series: (name, from, to) => `(WITH RECURSIVE s(x) AS (SELECT ${from} UNION ALL SELECT x + 1 FROM s WHERE x < ${to}) SELECT x AS ${name} FROM s) AS ${name}_series`,
      lpad: (x) => `substr('00' || (${x}), -3)`,
      bool: (x) => `(CASE WHEN ${x} THEN 1 ELSE 0 END)`,
      table: (t) => t,
      user: 'user',
    },
    SOURCE,
    endMs,
  );
  db.db.exec(sql.alarms);
  for (let k = 0; k < SEED.changesPerAlarm; k++) {
    deadline.check(`the SQLite seed's changes ${k}`);
    db.db.exec(sql.changes(k, k));
  }
  db.db.exec(sql.handlings);
  db.db.exec(sql.sources);
  // The source's counts (C-82) from its rows, as schema step 3 sets them.
  db.db.exec(RECOUNT_SQL);
  db.db.exec('ANALYZE');
  void db.close();
  return performance.now() - t;
}

/** The same rows into the PostgreSQL alarm store (generate_series), two values of k at a time, the sequences moved past them, then VACUUM ANALYZE (what autovacuum does to a table after a load). */
export async function seedPg(pool: PgPool, endMs: number, deadline: Deadline): Promise<number> {
  const t = performance.now();
  await openPgAlarmStore(pool);
  const names = { alarms: 'alarms', changes: 'alarm_changes', handlings: 'alarm_handlings', sources: 'alarm_sources' } as const;
  const sql = seedSql(
    { series: (name, from, to) => `generate_series(${from}::bigint, ${to}::bigint) AS ${name}_series(${name})`, lpad: (x) => `lpad((${x})::text, 3, '0')`, bool: (x) => `(${x})`, table: (t) => names[t], user: '"user"' },
    SOURCE,
    endMs,
  );
  await pool.query(sql.alarms);
  for (let k = 0; k < SEED.changesPerAlarm; k += 2) {
    deadline.check(`the PostgreSQL seed's changes ${k}`);
    await pool.query(sql.changes(k, Math.min(k + 1, SEED.changesPerAlarm - 1)));
  }
  await pool.query(sql.handlings);
  await pool.query(sql.sources);
  // The source's counts (C-82) from its rows, as schema step 3 sets them.
  await pool.query(`UPDATE alarm_sources s SET alarm_count = (SELECT COUNT(*) FROM alarms a WHERE a.source = s.source),
    change_count = (SELECT COUNT(*) FROM alarm_changes c JOIN alarms a ON a.aid = c.aid WHERE a.source = s.source)`);
  await pool.query(`SELECT setval('alarms_aid_seq', ${SEED.alarms}), setval('alarm_changes_seq_seq', ${SEED.alarms * SEED.changesPerAlarm}), setval('alarm_seq', ${SEED.alarms})`);
  deadline.check('VACUUM ANALYZE');
  await pool.query('VACUUM ANALYZE alarms, alarm_changes, alarm_handlings, alarm_sources');
  return performance.now() - t;
}

/** The alarm channels as main answers them: the real service and handlers behind the real router; no node (nothing here signs in). */
export function alarmRouter(store: AlarmStore, nowMs: number): { router: Router; alarms: AlarmService } {
  const logger = createMemoryLogger('warn');
  const alarms = new AlarmService({
    store,
    requestFor: () => {
      throw new Error('the bench has no node');
    },
    requireSignedIn: () => {
      throw new AppError(ErrorCodes.notFound, 'the bench has no node', 'none');
    },
    broker: async () => undefined,
    emit: () => undefined,
    logger,
    retentionDays: () => 30,
    now: () => nowMs,
  });
  const profiles = {
    get: (id: string) => {
      if (id !== SOURCE) throw new AppError(ErrorCodes.notFound, 'no such connection', 'none');
      return { id } as never;
    },
  };
  return { router: createRouter(createAlarmHandlers({ alarms, profiles }) as unknown as Handlers, logger), alarms };
}

export function caller(router: Router) {
  return async <T>(channel: string, request: unknown): Promise<T> => {
    const r = (await router.invoke(channel, request)) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
    if (!r.ok) throw new Error(`${channel}: ${r.error?.code} ${r.error?.message}`);
    return r.value as T;
  };
}

export async function time<T>(repeat: number, deadline: Deadline, run: () => Promise<T>): Promise<Timing & { last: T }> {
  const cpuMs = (c: NodeJS.CpuUsage) => (c.user + c.system) / 1000;
  let s = performance.now();
  let c = process.cpuUsage();
  let last = await run();
  const firstMs = performance.now() - s;
  const cpu = [cpuMs(process.cpuUsage(c))];
  const ms: number[] = [];
  for (let i = 0; i < repeat && Date.now() < deadline.atMs; i++) {
    s = performance.now();
    c = process.cpuUsage();
    last = await run();
    ms.push(performance.now() - s);
    cpu.push(cpuMs(process.cpuUsage(c)));
  }
  ms.sort((a, b) => a - b);
  if (cpu.length > 1) cpu.shift();
  cpu.sort((a, b) => a - b);
  return { firstMs, medianMs: ms.length ? ms[Math.floor(ms.length / 2)]! : firstMs, worstMs: ms.length ? ms[ms.length - 1]! : firstMs, cpuMedianMs: cpu[Math.floor(cpu.length / 2)]!, last };
}

/** The page's filters timed (renderer/app/search.ts alarmFilterOf: the default is open alarms). */
export const WINDOW_FILTERS: Array<{ what: string; filter: AlarmFilter }> = [
  { what: 'the default view (open alarms)', filter: { cleared: 'active' } },
  { what: 'no filter (open and cleared)', filter: { cleared: 'all' } },
  { what: 'critical and major, search "tunnel"', filter: { cleared: 'active', severity: ['critical', 'major'], text: 'tunnel' } },
  { what: 'critical, search "vni-0/42130"', filter: { cleared: 'active', severity: ['critical'], text: 'vni-0/42130' } },
  { what: 'Org 042, search "bgp"', filter: { cleared: 'active', org: 'Org 042', text: 'bgp' } },
];

/** What the Alarms page asks for its first view, through the router. */
export async function measureAlarmWindows(router: Router, repeat: number, deadline: Deadline, countedBefore?: () => Promise<number>): Promise<AlarmWindowFigure[]> {
  const call = caller(router);
  const client = { invoke: call } as unknown as Parameters<typeof readWindow>[0];
  const out: AlarmWindowFigure[] = [];
  for (const w of WINDOW_FILTERS) {
    deadline.check(`alarms.list ${w.what}`);
    const t = await time(repeat, deadline, () => readWindow(client, SOURCE, w.filter, 0));
    out.push({ what: `alarms.list, first window of 100, ${w.what}`, ...strip(t), answer: `${t.last.rows.length} rows of ${t.last.total.toLocaleString('en-US')}` });
  }
  deadline.check('alarms.summary');
  const s = await time(repeat, deadline, () => call<{ organizations: unknown[]; totals: { total: number } }>('alarms.summary', { profileId: SOURCE }));
  out.push({ what: 'alarms.summary', ...strip(s), answer: `${s.last.organizations.length} organizations, ${s.last.totals.total.toLocaleString('en-US')} open` });
  deadline.check('alarms.rate');
  const r = await time(repeat, deadline, () => call<{ buckets: Array<{ count: number }> }>('alarms.rate', { profileId: SOURCE, minutes: 60 }));
  out.push({ what: 'alarms.rate (60 minutes)', ...strip(r), answer: `${r.last.buckets.length} minutes, ${r.last.buckets.reduce((a, b) => a + b.count, 0).toLocaleString('en-US')} changes` });
  deadline.check('alarms.status');
  const st = await time(repeat, deadline, () => call<{ stored: { changes: number } }>('alarms.status', { profileId: SOURCE }));
  out.push({ what: 'alarms.status (source not running)', ...strip(st), answer: `${st.last.stored.changes.toLocaleString('en-US')} changes stored` });
  if (countedBefore) {
    // Side by side: what `counts` did before C-82 (every change of the source counted), the same store.
    deadline.check('the counts as counted before C-82');
    const b = await time(repeat, deadline, countedBefore);
    out.push({ what: 'for comparison, the source\'s changes counted from the rows as counts() did before C-82', ...strip(b), answer: `${b.last.toLocaleString('en-US')} changes` });
  }
  deadline.check('the first view together');
  // As the page opens: the list, counters, chart and status asked at once.
  const all = await time(repeat, deadline, () =>
    Promise.all([readWindow(client, SOURCE, { cleared: 'active' }, 0), call('alarms.summary', { profileId: SOURCE }), call('alarms.rate', { profileId: SOURCE, minutes: 60 }), call('alarms.status', { profileId: SOURCE })]),
  );
  out.push({ what: 'the first view (default list, summary, rate, status at once)', ...strip(all), answer: '' });
  return out;
}

const strip = (t: Timing): Timing => ({ firstMs: t.firstMs, medianMs: t.medianMs, worstMs: t.worstMs, cpuMedianMs: t.cpuMedianMs });

export async function benchAlarmWindowSqlite(repeat = 5, deadline = new Deadline(Date.now() + 15 * 60_000)): Promise<AlarmWindowBench> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-bench-alarm-window-'));
  try {
    const endMs = Date.now();
    const file = path.join(dir, 'alarms.db');
    const seedMs = seedSqlite(file, endMs, deadline);
    // Opened as the app opens it (its times repaired at open, reads on this thread).
    const store = openAlarmStore(file, { now: () => endMs });
    try {
      const { router } = alarmRouter(store, endMs);
      const before = async () => (store.db.db.prepare('SELECT COUNT(*) AS n FROM changes WHERE aid IN (SELECT aid FROM alarms WHERE source = ?)').get(SOURCE) as { n: number }).n;
      return { backend: 'SQLite', changes: SEED.alarms * SEED.changesPerAlarm, alarms: SEED.alarms, seedMs, figures: await measureAlarmWindows(router, repeat, deadline, before) };
    } finally {
      await store.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface OverviewPgBench {
  hosts: number;
  edrSeedMs: number;
  overview: Timing;
  /** The parts of the answer, as the page shows them. */
  answer: string;
  /** Each store call `overview.get` makes, timed apart (median of `repeat`). */
  calls: Array<{ what: string } & Timing>;
}

/**
 * The alarm store on PostgreSQL (5,000,000 changes) through the router; then, on the same database,
 * the EDR store at `hosts` hosts (zta-windows' BULK) and the Overview over both (see the file's comment).
 */
export async function benchAlarmWindowPg(hosts: number, repeat = 5, deadline = new Deadline(Date.now() + 20 * 60_000)): Promise<{ alarms: AlarmWindowBench; overview: OverviewPgBench | undefined }> {
  const cluster = await startPostgres({ durable: true });
  const pool = openPostgres({ url: cluster.url, max: 6 });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-bench-alarm-window-pg-'));
  try {
    const endMs = Date.now();
    const seedMs = await seedPg(pool, endMs, deadline);
    const store = await openPgAlarmStore(pool);
    const { router, alarms } = alarmRouter(store, endMs);
    const before = async () => Number((await pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM alarm_changes c JOIN alarms a ON a.aid = c.aid WHERE a.source = $1', [SOURCE])).rows[0]!.n);
    const result: AlarmWindowBench = { backend: 'PostgreSQL', changes: SEED.alarms * SEED.changesPerAlarm, alarms: SEED.alarms, seedMs, figures: await measureAlarmWindows(router, repeat, deadline, before) };
    let overview: OverviewPgBench | undefined;
    if (hosts > 0) {
      deadline.check('the EDR seed');
      const edr = await openPgEdrStore(pool);
      const t = performance.now();
      await pool.query(BULK(hosts, 10));
      const edrSeedMs = performance.now() - t;
      const logger = createMemoryLogger('warn');
      const noRegistry = { list: () => [] };
      const scheduler = { status: () => ({ running: false }), rescore: () => Promise.reject(new Error('not in the bench')) };
      const zta = new ZtaService({ store: edr, registry: noRegistry as never, scheduler: scheduler as never, logger, retentionDays: () => 30, everyStored: true });
      const inventory = openInventoryStore(path.join(dir, 'inventory.db'));
      try {
        const service = new OverviewService({
          profiles: { list: () => [{ id: SOURCE, name: 'Bench node' }] } as never,
          sessions: { status: () => ({ state: 'signed-out' }) } as never,
          alarms,
          edr: { zta, store: edr, registry: noRegistry, scheduler } as never,
          inventory: { store: inventory } as never,
          demo: { status: () => ({ running: false }) } as never,
        });
        const overviewRouter = createRouter(createOverviewHandlers({ overview: service, fleet: { get: () => Promise.reject(new Error('the Fleet card is not part of this figure')) } }) as unknown as Handlers, logger);
        const call = caller(overviewRouter);
        deadline.check('overview.get');
        type O = { alarms: { state: string; active?: { total: number } }; risk: { state: string; hosts?: number; trend?: unknown[]; entered?: { state: string } }; devices: { state: string }; connectors: unknown[] };
        const o = await time(repeat, deadline, () => call<O>('overview.get', { profileId: SOURCE }));
        const a = o.last;
        const answer = `alarms ${a.alarms.state} (${(a.alarms.active?.total ?? 0).toLocaleString('en-US')} active), risk ${a.risk.state} (${(a.risk.hosts ?? 0).toLocaleString('en-US')} hosts, trend of ${a.risk.trend?.length ?? 0} points, entered ${a.risk.entered?.state}), devices ${a.devices.state}, ${a.connectors.length} connectors`;
        // Each store call overview.get makes (overview.ts), apart.
        const connectors = await zta.connectors();
        const cycles = connectors.flatMap((c) => (c.cycleId === null ? [] : [c.cycleId]));
        const calls: OverviewPgBench['calls'] = [];
        const part = async (what: string, run: () => Promise<unknown>) => {
          deadline.check(what);
          calls.push({ what, ...strip(await time(repeat, deadline, run)) });
        };
        await part('zta.connectors() (latestCycles, and lastCycle and cycle per connector)', () => zta.connectors());
        await part('alarm store: collected + sourceState + overview (the alarm tile)', () => alarms.overview(SOURCE));
        await part('alarm store: overview (GROUP BY org, severity over open alarms)', () => store.overview(SOURCE));
        await part(`edr store: bandTotals(${cycles.length} cycles)`, () => edr.bandTotals(cycles));
        await part(`edr store: previousCycle × ${connectors.length}`, () => Promise.all(connectors.map((c) => edr.previousCycle(c.connectorId, c.cycleId!))));
        await part(`edr store: trend(${OVERVIEW_TREND_CYCLES} cycles)`, () => edr.trend({ connectors: new Set(connectors.map((c) => c.connectorId)) }, OVERVIEW_TREND_CYCLES));
        await part(`edr store: cycle × ${connectors.length} (the connectors' tiles)`, () => Promise.all(cycles.map((id) => edr.cycle(id))));
        await part('the sidebar badges (overview.badges: criticalUnacknowledged, bandTotals)', () => call('overview.badges', { profileId: SOURCE }));
        overview = { hosts, edrSeedMs, overview: strip(o), answer, calls };
      } finally {
        await inventory.close();
      }
    }
    return { alarms: result, overview };
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await pool.end();
    await cluster.stop();
  }
}
