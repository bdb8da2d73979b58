/**
 * The ZTA table's windows and counts as SQL (issue 25.3), one builder for both backends (SQLite and
 * PostgreSQL differ in placeholders, collation and the customer order's array): the latest snapshot
 * (each connector's newest completed cycle, the hosts `appendRows` gives), the dashboard's filter,
 * the search, and every sort key with the renderer's order semantics (shared/model/zta-window.ts,
 * renderer/features/zta/zta-index.ts `buildOrder`). What a key sorts by, as the renderer's buckets:
 * - assessments: unknown first, then Falcon's 0…100 (rounded), then Defender's words in enum order;
 * - score: not assessed below every score, then the score in hundredths (rounded);
 * - enums, platform, band: their option's index (unknown first for the Defender enums);
 * - lastSeen: never seen first, then the stored ISO text; cves: unknown first, then critical, then all.
 */
import { BANDS, ENUMS, PLATFORMS, emptyBandCounts } from '../../../shared/model/zta';
import type { ZtaFilter } from '../../../shared/model/zta';
import { NOT_ASSESSED, type Platform, type RiskBand } from '../../../shared/model/edr';
import { storeSearch, type CustomerCounts, type HostCounts, type HostWindowQuery, type HostWindowRow, type ZtaSort } from '../../../shared/model/zta-window';

export type Dialect = 'sqlite' | 'pg';

const quote = (v: string) => `'${v.replace(/'/g, "''")}'`;
/** An option's index (from `base`), `otherwise` for anything else (null included). */
const indexCase = (col: string, options: readonly string[], base: number, otherwise: number) =>
  `(CASE ${col} ${options.map((o, i) => `WHEN ${quote(o)} THEN ${base + i}`).join(' ')} ELSE ${otherwise} END)`;

/**
 * ASCII letters folded (as `storeSearch` folds the search), whatever the database's locale: `lower`
 * under the "C" collation folds only A–Z. Indexable (step 3); `translate` over the 26 letters would
 * mean the same but cost 20 times as much a row (3.9 s against 0.17 s for 1,000,000 pairs, measured).
 */
export const foldPg = (col: string) => `lower(${col} COLLATE "C")`;

/**
 * The default order's rank (riskiest first, not assessed below every score), as the indexes of
 * SQLite's step 8 and PostgreSQL's step 3 spell it (`prefix` is the table's alias, or none there).
 */
export const DEFAULT_RANK = (prefix: string) => `(CASE WHEN ${prefix}band = 'Not assessed' THEN -1 ELSE ${prefix}score END)`;

/** LIKE's wildcards in the search taken literally (escape character `\`). */
const likeLiteral = (q: string) => q.replace(/[\\%_]/g, (c) => `\\${c}`);

export class Sql {
  readonly args: unknown[] = [];
  constructor(readonly d: Dialect) {}
  /** A bound value's placeholder. */
  p(v: unknown): string {
    this.args.push(v);
    return this.d === 'pg' ? `$${this.args.length}` : '?';
  }
  t(name: string) {
    return this.d === 'pg' ? `edr.${name}` : name;
  }
  /** A text column in code-unit (byte) order. */
  c(col: string) {
    return this.d === 'pg' ? `${col} COLLATE "C"` : col;
  }
  /** Math.round (for the values here: half up). */
  round(x: string) {
    return `floor(${x} + 0.5)`;
  }
  clamp(x: string, lo: number, hi: number) {
    return this.d === 'pg' ? `GREATEST(${lo}, LEAST(${hi}, ${x}))` : `max(${lo}, min(${hi}, ${x}))`;
  }
}

/** The latest snapshot's membership: each connector's newest completed cycle. */
export const latest = (s: Sql) => `latest AS (SELECT connector_id, MAX(id) AS id FROM ${s.t('cycles')} WHERE status = 'completed' GROUP BY connector_id)`;

/** The filter's conditions on `hosts h` (band optional: the counts group by it). */
export function where(s: Sql, f: ZtaFilter, withBand: boolean): string[] {
  const w: string[] = [];
  if (f.customer !== undefined) w.push(`h.customer_id = ${s.p(f.customer)}`);
  if (f.platform !== undefined) w.push(`h.platform = ${s.p(f.platform)}`);
  if (f.vendor !== undefined) w.push(`h.vendor = ${s.p(f.vendor)}`);
  if (f.connector !== undefined) w.push(`h.connector_id = ${s.p(f.connector)}`);
  if (withBand && f.band !== undefined) w.push(`h.band = ${s.p(f.band)}`);
  const q = storeSearch(f.q);
  if (q !== undefined) {
    if (s.d === 'pg') {
      const like = `%${likeLiteral(q)}%`;
      // LIKE over the folded text: the trigram indexes of step 3 serve it (edr-pg-schema.ts).
      w.push(`(${foldPg('h.hostname')} LIKE ${s.p(like)} ESCAPE '\\' OR ${foldPg('h.host_id')} LIKE ${s.p(like)} ESCAPE '\\')`);
    } else {
      // SQLite's LIKE folds ASCII letters (case_sensitive_like is never set), as `storeSearch` does; faster than lower() and instr.
      const like = `%${likeLiteral(q)}%`;
      w.push(`(h.hostname LIKE ${s.p(like)} ESCAPE '\\' OR h.host_id LIKE ${s.p(like)} ESCAPE '\\')`);
    }
  }
  return w;
}

export const FROM = (s: Sql) =>
  `FROM ${s.t('hosts')} h JOIN ${s.t('host_seen')} hs ON hs.hid = h.hid JOIN latest l ON l.connector_id = h.connector_id AND hs.last_cycle = l.id`;

/**
 * A window's hosts (C-101): as FROM, except on SQLite for the orders an index of `hosts` holds (the
 * default order, step 8; the score sort, step 9) with no connector or band filter, where `hosts` is
 * the outer loop (CROSS JOIN keeps the order written), read along that index and stopped at the
 * window's end. The store keeps no statistics (no ANALYZE), and without them — and with them too,
 * measured — SQLite reads each connector's hosts by the connector's key and sorts them all, even with
 * an index in the window's order (60–125 ms against 1 ms at 100,000 hosts). Not for other orders (it
 * then scanned `hosts` through an index and sorted: 2–10x slower), nor with a connector (read by its
 * key, then sorted) or a band (its hosts may lie at the index's far end).
 */
function windowFrom(s: Sql, q: HostWindowQuery): string {
  const indexed = q.sort === undefined || q.sort.key === 'score';
  if (s.d === 'pg' || !indexed || q.filter.connector !== undefined || q.filter.band !== undefined) return FROM(s);
  return `FROM hosts h CROSS JOIN host_seen hs ON hs.hid = h.hid CROSS JOIN latest l ON l.connector_id = h.connector_id AND hs.last_cycle = l.id`;
}

/**
 * The ORDER BY of a sort (none: the default order), ties as the renderer breaks them. `apart`: the
 * first key written so that no index matches it (`+ 0`, the same order), for a read that must not
 * walk an index of the order (edr-window-pg.ts: a band's hosts lie at one end of the score's).
 */
export function orderBy(s: Sql, sort: ZtaSort | undefined, customerOrder: boolean, apart = false): string {
  const name = s.c('h.hostname');
  const ties = [name, 'h.connector_id', 'h.host_id'];
  const dir = (keys: string[], desc: boolean) => keys.map((k) => `${k} ${desc ? 'DESC' : 'ASC'}`);
  const first = (keys: string[]) => (apart ? [`(${keys[0]} + 0)`, ...keys.slice(1)] : keys);
  if (sort === undefined) {
    return [...dir(first([DEFAULT_RANK('h.')]), true), ...dir(ties, false)].join(', ');
  }
  if (sort.key === 'hostname' || sort.key === 'hostId') {
    // Descending is the ascending order reversed, ties too (as the renderer's).
    const keys = sort.key === 'hostname' ? ties : ['h.host_id', name, 'h.connector_id'];
    return dir(keys, sort.desc).join(', ');
  }
  return [...dir(first(sortKeys(s, sort.key, customerOrder)), sort.desc), ...dir(ties, false)].join(', ');
}

const ASSESSMENT_DEFENDER = { osAssessment: ['os_assessment', 'exposure'], sensorAssessment: ['sensor_assessment', 'health'], overallAssessment: ['overall_assessment', 'risk_level'] } as const;
const ENUM_COLUMN = { riskLevel: 'risk_level', exposure: 'exposure', health: 'health', avStatus: 'av_status' } as const;
const ENUM_OPTIONS = { risk_level: ENUMS.riskLevel, exposure: ENUMS.exposure, health: ENUMS.health, av_status: ENUMS.avStatus } as const;

export function sortKeys(s: Sql, key: Exclude<ZtaSort['key'], 'hostname' | 'hostId'>, customerOrder: boolean): string[] {
  switch (key) {
    case 'vendor':
      return [`(CASE WHEN h.vendor = 'defender' THEN 1 ELSE 0 END)`];
    case 'customer':
      return customerOrder ? ['(CASE WHEN co.pos IS NULL THEN 1 ELSE 0 END)', 'COALESCE(co.pos, 0)', s.c('h.customer_id')] : [s.c('h.customer_id')];
    case 'platform':
      return [indexCase('h.platform', PLATFORMS, 0, 0)];
    case 'osAssessment':
    case 'sensorAssessment':
    case 'overallAssessment': {
      const [falcon, defender] = ASSESSMENT_DEFENDER[key];
      const words = indexCase(`h.${defender}`, ENUM_OPTIONS[defender], 102, 0);
      return [`(CASE WHEN h.vendor = 'defender' THEN ${words} WHEN h.${falcon} IS NULL THEN 0 ELSE 1 + ${s.clamp(s.round(`h.${falcon}`), 0, 100)} END)`];
    }
    case 'score':
      return [`(CASE WHEN h.band = ${quote(NOT_ASSESSED)} THEN 0 ELSE 1 + ${s.clamp(s.round('h.score * 100'), 0, 10_000)} END)`];
    case 'band':
      return [indexCase('h.band', BANDS, 0, 0)];
    case 'lastSeen':
      return [`(CASE WHEN hs.last_seen IS NULL OR hs.last_seen = '' THEN 0 ELSE 1 END)`, s.c(`COALESCE(hs.last_seen, '')`)];
    case 'riskLevel':
    case 'exposure':
    case 'health':
    case 'avStatus': {
      const col = ENUM_COLUMN[key];
      return [indexCase(`h.${col}`, ENUM_OPTIONS[col], 1, 0)];
    }
    case 'cves':
      return ['(CASE WHEN h.critical_cves IS NULL THEN 0 ELSE 1 END)', '(COALESCE(h.critical_cves, 0) * 1000000 + COALESCE(h.cve_count, 0))'];
    case 'sensor':
      return ['(CASE WHEN h.sensor_running IS NULL THEN 0 WHEN h.reduced_functionality = 1 THEN 2 WHEN h.sensor_running = 1 THEN 3 ELSE 1 END)'];
  }
}

export const WINDOW_COLUMNS = `h.connector_id, h.vendor, h.host_id, h.hostname, h.customer_id, h.platform, h.score, h.band, hs.last_seen,
  h.os_assessment, h.sensor_assessment, h.overall_assessment, h.sensor_running, h.reduced_functionality,
  h.risk_level, h.exposure, h.health, h.av_status, h.onboarding, h.critical_cves, h.cve_count, h.max_cvss, h.cvss`;

export interface Statement {
  text: string;
  args: unknown[];
}

/**
 * The window's rows (array rows in WINDOW_COLUMNS' order), the general way: SQLite's every window,
 * and PostgreSQL's when none of its own plans serves it (edr-window-pg.ts: `pgWindow`).
 */
export function windowSql(d: Dialect, q: HostWindowQuery): Statement {
  const s = new Sql(d);
  const useOrder = q.sort?.key === 'customer' && q.customerOrder !== undefined;
  const ctes = [latest(s)];
  if (useOrder) ctes.push(customerOrderCte(s, q.customerOrder!));
  const w = where(s, q.filter, true);
  const text = `WITH ${ctes.join(', ')} SELECT ${WINDOW_COLUMNS} ${windowFrom(s, q)}${useOrder ? ' LEFT JOIN co ON co.cid = h.customer_id' : ''}
    ${w.length ? `WHERE ${w.join(' AND ')}` : ''} ORDER BY ${orderBy(s, q.sort, useOrder)} LIMIT ${s.p(q.limit)} OFFSET ${s.p(q.offset)}`;
  return { text, args: s.args };
}

/** The customer order's positions by customer ID (a customer listed twice: its first place). */
export const customerOrderCte = (s: Sql, order: readonly string[]) =>
  s.d === 'pg'
    ? `co AS (SELECT cid, MIN(pos) AS pos FROM unnest(${s.p(order)}::text[]) WITH ORDINALITY AS u(cid, pos) GROUP BY cid)`
    : `co AS (SELECT value AS cid, MIN(key) AS pos FROM json_each(${s.p(JSON.stringify(order))}) GROUP BY value)`;

/** The filter's conditions on the latest cycles' band counts (`cycle_bands b` of `cycles c`); a search is not among them. */
export function bandsWhere(s: Sql, f: ZtaFilter): string[] {
  const w: string[] = [];
  if (f.customer !== undefined) w.push(`b.customer_id = ${s.p(f.customer)}`);
  if (f.platform !== undefined) w.push(`b.platform = ${s.p(f.platform)}`);
  if (f.vendor !== undefined) w.push(`c.vendor = ${s.p(f.vendor)}`);
  if (f.connector !== undefined) w.push(`c.connector_id = ${s.p(f.connector)}`);
  if (f.band !== undefined) w.push(`b.band = ${s.p(f.band)}`);
  return w;
}

/**
 * Hosts by customer, platform and band for the filter and search. Without a search, from the
 * latest cycles' band counts (`cycle_bands`: no host row is read), exact. With one, from at most
 * `cap + 1` matching hosts (C-79): `boundedCounts` makes the answer, exact when they are `cap` or
 * fewer. Which hosts a bounded read finds first is the database's choice (no order: the read stops
 * as soon as it has them). `cap` of the answer: what boundedCounts takes (Infinity: exact).
 */
export function countsSql(d: Dialect, f: ZtaFilter, cap: number): Statement & { cap: number } {
  const s = new Sql(d);
  if (storeSearch(f.q) === undefined) {
    const w = bandsWhere(s, f);
    return {
      text: `WITH ${latest(s)} SELECT b.customer_id, b.platform, b.band, SUM(b.hosts) AS n FROM ${s.t('cycle_bands')} b
        JOIN latest l ON l.id = b.cycle_id JOIN ${s.t('cycles')} c ON c.id = l.id ${w.length ? `WHERE ${w.join(' AND ')}` : ''}
        GROUP BY b.customer_id, b.platform, b.band`,
      args: s.args,
      cap: Infinity,
    };
  }
  const w = where(s, f, true);
  // On PostgreSQL each host's row in host_seen is looked up by its key (a LATERAL the planner may not
  // flatten): joined, the planner expected a tenth of the hosts in their connector's newest cycle
  // and hashed all of host_seen (1,000,000 rows) to find the first 10,001 (190–290 ms against 25–43).
  const from =
    d === 'pg'
      ? `FROM edr.hosts h JOIN latest l ON l.connector_id = h.connector_id
          CROSS JOIN LATERAL (SELECT s.last_cycle FROM edr.host_seen s WHERE s.hid = h.hid OFFSET 0) hs WHERE hs.last_cycle = l.id AND`
      : `${FROM(s)} WHERE`;
  return {
    text: `WITH ${latest(s)}, m AS (SELECT h.customer_id, h.platform, h.band ${from} ${w.join(' AND ')} LIMIT ${s.p(cap + 1)})
      SELECT customer_id, platform, band, COUNT(*) AS n FROM m GROUP BY customer_id, platform, band`,
    args: s.args,
    cap,
  };
}

/**
 * The counts from countsSql's rows: exact when they count `cap` hosts or fewer; else the counts of
 * `cap` of them (one host of the last group left out), every number a lower bound (C-79).
 */
export function boundedCounts(rows: ReadonlyArray<{ customer: string; platform: string; band: string; n: number }>, cap: number): HostCounts {
  const sum = rows.reduce((a, r) => a + r.n, 0);
  if (sum <= cap) return hostCountsOf(rows);
  let over = sum - cap;
  const kept = rows.map((r) => ({ ...r }));
  for (let i = kept.length - 1; i >= 0 && over > 0; i--) {
    const take = Math.min(over, kept[i]!.n);
    kept[i]!.n -= take;
    over -= take;
  }
  return { ...hostCountsOf(kept), exact: false };
}

/**
 * A window's total from its counts and its rows: the counts' when exact; else a lower bound that is
 * at least what the window itself shows (`offset` + its rows, when it has some), and exact after all
 * when the window reached the end of the matching hosts (fewer rows than asked, and some or from the
 * start).
 */
export function windowTotal(counts: Pick<HostCounts, 'total' | 'exact'>, offset: number, limit: number, rows: number): { total: number; exact: boolean } {
  if (counts.exact) return { total: counts.total, exact: true };
  if (rows < limit && (rows > 0 || offset === 0)) return { total: offset + rows, exact: true };
  // An empty window (past the end, or limit 0) tells nothing of the total.
  return { total: Math.max(counts.total, rows > 0 ? offset + rows : 0), exact: false };
}

/** A window row from its array (WINDOW_COLUMNS' order; PostgreSQL's float8 and text as they come). */
export function windowRow(r: readonly unknown[]): HostWindowRow {
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const band = r[7] as RiskBand;
  return {
    connectorId: String(r[0]),
    vendor: r[1] === 'falcon' ? 'falcon' : 'defender',
    hostId: String(r[2]),
    hostname: String(r[3]),
    customerId: String(r[4]),
    platform: r[5] as Platform,
    score: band === NOT_ASSESSED ? null : Number(r[6]),
    band,
    lastSeen: text(r[8]),
    osAssessment: num(r[9]),
    sensorAssessment: num(r[10]),
    overallAssessment: num(r[11]),
    sensorRunning: num(r[12]),
    reducedFunctionality: num(r[13]),
    riskLevel: text(r[14]),
    exposure: text(r[15]),
    health: text(r[16]),
    avStatus: text(r[17]),
    onboarding: text(r[18]),
    criticalCves: num(r[19]),
    cveCount: num(r[20]),
    maxCvss: num(r[21]),
    cvss: text(r[22]),
  };
}

const byCodeUnits = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The counts from (customer, platform, band, hosts) rows: customers by ID (code units), platforms in PLATFORMS' order. */
export function hostCountsOf(rows: Iterable<{ customer: string; platform: string; band: string; n: number }>): HostCounts {
  const out: HostCounts = { total: 0, bands: emptyBandCounts(), customers: [], exact: true };
  const customers = new Map<string, CustomerCounts>();
  for (const r of rows) {
    if (r.n === 0) continue;
    // As the snapshot reads them: an unknown band or platform is the first of its options.
    const band: RiskBand = (BANDS as readonly string[]).includes(r.band) ? (r.band as RiskBand) : 'Trustworthy';
    const platform: Platform = (PLATFORMS as readonly string[]).includes(r.platform) ? (r.platform as Platform) : 'Windows';
    let c = customers.get(r.customer);
    if (!c) customers.set(r.customer, (c = { customerId: r.customer, hosts: 0, bands: emptyBandCounts(), platforms: [] }));
    let p = c.platforms.find((x) => x.platform === platform);
    if (!p) c.platforms.push((p = { platform, hosts: 0, bands: emptyBandCounts() }));
    out.total += r.n;
    out.bands[band] += r.n;
    c.hosts += r.n;
    c.bands[band] += r.n;
    p.hosts += r.n;
    p.bands[band] += r.n;
  }
  out.customers = [...customers.values()].sort((a, b) => byCodeUnits(a.customerId, b.customerId));
  for (const c of out.customers) c.platforms.sort((a, b) => PLATFORMS.indexOf(a.platform) - PLATFORMS.indexOf(b.platform));
  return out;
}

/** SQL of the latest snapshot's cycles: a snapshot's hosts change only when one of these does (a commit makes a new one). */
export const latestIdsSql = (d: Dialect) => `SELECT MAX(id) AS id FROM ${d === 'pg' ? 'edr.' : ''}cycles WHERE status = 'completed' GROUP BY connector_id ORDER BY 1`;

/**
 * The last few counts by the latest cycles they were counted over and the filter: a window and its
 * counts asked together count once, and a search typed back finds its counts again. A snapshot's
 * hosts are those of its connectors' newest completed cycles and change only when a commit makes a
 * new one (retention keeps them), so an entry holds while those cycles are the newest.
 */
export class CountsCache {
  private readonly entries = new Map<string, HostCounts>();
  constructor(private readonly size = 16) {}

  key(latestIds: ReadonlyArray<number | string>, f: ZtaFilter, cap: number): string {
    const q = storeSearch(f.q);
    return JSON.stringify([latestIds.map(Number), f.customer, f.platform, f.vendor, f.connector, f.band, q, cap]);
  }

  get(key: string): HostCounts | undefined {
    const hit = this.entries.get(key);
    if (hit) {
      this.entries.delete(key);
      this.entries.set(key, hit);
    }
    return hit && structuredClone(hit);
  }

  set(key: string, counts: HostCounts): void {
    this.entries.delete(key);
    if (this.entries.size >= this.size) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, structuredClone(counts));
  }
}

/**
 * The latest snapshot's hosts matching a filter and its search, as parts of a statement the caller
 * finishes (the export's stream, edr-export-sql.ts): the `latest` CTE, the FROM over `hosts h` and
 * `host_seen hs`, the filter's conditions, and the placeholders its own values continue.
 */
export function filteredHostsSql(d: Dialect, f: ZtaFilter) {
  const s = new Sql(d);
  return { cte: latest(s), from: FROM(s), where: where(s, f, true), args: s.args, p: (v: unknown) => s.p(v), c: (col: string) => s.c(col) };
}
