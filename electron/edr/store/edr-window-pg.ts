/**
 * The ZTA table's windows on PostgreSQL (issue 25.3): which statement reads a window. The general
 * one (edr-window-sql.ts `windowSql`) joins every matching host of the latest snapshot to its
 * `host_seen` row and sorts them; at 1,000,000 hosts that is 0.85–1.4 s. Orders an index of `hosts`
 * holds (the default, hostname, Host ID, score, band: steps 3–5) are read along it by that same
 * statement; the others take one of two plans here, or the general one when theirs cannot tell:
 * - the customer sort: a walk of each customer's hosts along `hosts_by_customer` (C-80);
 * - every other sort, and a band filter with the score's orders: the window's first hosts read
 *   first, apart (C-104, `topWindow`).
 */
import { storeSearch, type HostCounts, type HostWindowQuery, type HostWindowRow, type ZtaSort } from '../../../shared/model/zta-window';
import { FROM, Sql, WINDOW_COLUMNS, bandsWhere, customerOrderCte, latest, orderBy, sortKeys, where, windowRow, windowSql, type Statement } from './edr-window-sql';

/** A window's statement, and how its rows are read: `undefined` from `rows` means ask the general statement (`windowSql`). */
export interface PgWindowPlan {
  kind: 'general' | 'customer walk' | 'top';
  st: Statement;
  rows(raw: unknown[][]): HostWindowRow[] | undefined;
}

export interface PgWindowOptions {
  /** The fewest hosts a top-first read takes (C-104); tests make it small to reach its edges. */
  topMin?: number;
  /** Told the plan that read each window and whether its answer served (else the general statement read it): tests. */
  observe?: (kind: PgWindowPlan['kind'], served: boolean) => void;
}

/** A top-first read's fewest hosts: at 1,000,000 hosts reading 2,000 costs what reading 100 does (both 130–150 ms). */
export const TOP_MIN = 2_000;

/**
 * The statement that reads window `q` on PostgreSQL. `counts`: the window's counts in the same
 * snapshot (exact: every match counted; C-79 stops a search's at 10,000), which tell a last-seen
 * sort's plan how far its search reaches and a top-first read whether its empty answer is the
 * window's.
 */
export function pgWindow(q: HostWindowQuery, o: PgWindowOptions = {}, counts: Pick<HostCounts, 'exact' | 'total'> = { exact: true, total: Infinity }): PgWindowPlan {
  const general: PgWindowPlan = { kind: 'general', st: windowSql('pg', q), rows: (raw) => raw.map(windowRow) };
  if (q.sort?.key === 'customer') return byCustomerWalk(q) ? { kind: 'customer walk', st: customerWindowPg(q, q.sort.desc), rows: (raw) => raw.map(windowRow) } : general;
  return topWindow(q, o.topMin ?? TOP_MIN, counts) ?? general;
}

/** Rows from the top of the order past which the walks and top-first reads give way to the general statement. */
const WALK_MAX = 10_000;

// ---- The customer sort (C-80) ----

/**
 * Whether customerWindowPg serves the window: no search, no filter that leaves few of a customer's
 * hosts (platform, band: measured, the planner then read every host of each customer and sorted
 * them, 2 s at 1,000,000 hosts), a window near the top of the order.
 */
const byCustomerWalk = (q: HostWindowQuery) =>
  storeSearch(q.filter.q) === undefined && q.filter.platform === undefined && q.filter.band === undefined && q.offset + q.limit <= WALK_MAX;

/**
 * The customer sort on PostgreSQL (C-80; when byCustomerWalk): the customers with matching hosts (from
 * the latest cycles' band counts) in the sort's order, and for each, its first `offset + limit`
 * matching hosts read along `hosts_by_customer` (step 4: customer, then the hostname order's ties),
 * then the window cut from them. The order a customer takes (the caller's `customerOrder`, else its
 * ID) is a join with the query's own list, which no index can hold; the tie order within a customer
 * is the index's. Other windows go the general way (a search's trigram indexes find few hosts
 * faster than a walk of each customer's hosts would).
 */
function customerWindowPg(q: HostWindowQuery, desc: boolean): Statement {
  const s = new Sql('pg');
  const ctes = [latest(s)];
  const bw = bandsWhere(s, q.filter);
  ctes.push(
    `k0 AS (SELECT DISTINCT b.customer_id AS cid FROM edr.cycle_bands b JOIN latest l ON l.id = b.cycle_id JOIN edr.cycles c ON c.id = l.id
      WHERE b.hosts > 0${bw.map((x) => ` AND ${x}`).join('')})`,
  );
  if (q.customerOrder !== undefined) {
    ctes.push(customerOrderCte(s, q.customerOrder));
    ctes.push(`k AS (SELECT k0.cid, (CASE WHEN co.pos IS NULL THEN 1 ELSE 0 END) AS unlisted, COALESCE(co.pos, 0) AS pos FROM k0 LEFT JOIN co ON co.cid = k0.cid)`);
  } else {
    ctes.push(`k AS (SELECT cid, 0 AS unlisted, 0 AS pos FROM k0)`);
  }
  const w = where(s, q.filter, true);
  const dir = desc ? 'DESC' : 'ASC';
  const text = `WITH ${ctes.join(', ')} SELECT x.* FROM k CROSS JOIN LATERAL (
      SELECT ${WINDOW_COLUMNS} ${FROM(s)} WHERE h.customer_id COLLATE "C" = k.cid${w.map((x) => ` AND ${x}`).join('')}
      ORDER BY h.hostname COLLATE "C", h.connector_id, h.host_id LIMIT ${s.p(q.offset + q.limit)}) x
    ORDER BY k.unlisted ${dir}, k.pos ${dir}, k.cid COLLATE "C" ${dir}, x.hostname COLLATE "C", x.connector_id, x.host_id LIMIT ${s.p(q.limit)} OFFSET ${s.p(q.offset)}`;
  return { text, args: s.args };
}


// ---- Every other sort: the window's first hosts read first, apart (C-104) ----

/** The orders the general statement reads along an index of `hosts` (steps 3–5), and the customer sort (its walk, above). */
const INDEXED: ReadonlySet<ZtaSort['key'] | undefined> = new Set([undefined, 'hostname', 'hostId', 'score', 'band', 'customer']);

/**
 * A sort no index holds: the first `take` hosts in the window's order read apart — from `hosts`
 * alone (the filter and search are on its columns; a parallel read with a bounded sort), or for
 * the last-seen time from `host_seen` alone (the snapshot's hosts by when they were seen; those
 * seen at the same time as the last of them left out, as more such ties may lie past the read and
 * the hostname orders them) — then only those joined, kept when in the latest snapshot (and, for
 * the last-seen time, matching the filter), and the window cut from them. The hosts joined are the
 * first in the full order, so the window is exact when they number at least `offset + limit`, or
 * when the read took every host it could (fewer than `take`); else (a filter or snapshot that
 * leaves few of the first hosts, or more hosts seen at one time than the read took) `rows` says so
 * and the general statement reads it. A search that matches few hosts (all counted) with the
 * last-seen sort goes the general way: the trigram indexes find them fast (20 ms), and few of the
 * hosts seen first would match it (the read first, 105 ms, would be in vain).
 */
function topWindow(q: HostWindowQuery, min: number, counts: Pick<HostCounts, 'exact' | 'total'>): PgWindowPlan | undefined {
  const key = q.sort?.key;
  // A band filter with the orders of the score (the default, score, band): the band's hosts lie
  // together somewhere along the order's index, which the planner, expecting them spread, walks
  // from its start (1.1-1.5 s at 1,000,000 hosts for the low bands); read apart instead, unindexed.
  const bandApart = q.filter.band !== undefined && (key === undefined || key === 'score' || key === 'band');
  if ((INDEXED.has(key) && !bandApart) || q.offset + q.limit > WALK_MAX) return undefined;
  const take = Math.max(min, 2 * (q.offset + q.limit));
  if (key === 'lastSeen' && storeSearch(q.filter.q) !== undefined && counts.exact) return undefined;
  const st = key === 'lastSeen' ? lastSeenTop(q, take) : hostsTop(q, take, bandApart);
  return {
    kind: 'top',
    st,
    rows: (raw) => {
      // An empty answer carries no counts of its own: it is the window's when the exact counts put
      // the window past the end (a filter nothing matches); else asked again the general way.
      if (raw.length === 0) return counts.exact && q.offset >= counts.total ? [] : undefined;
      const matched = Number(raw[0]![TOP_MATCHED]);
      const considered = Number(raw[0]![TOP_MATCHED + 1]);
      return considered < take || matched >= q.offset + q.limit ? raw.map(windowRow) : undefined;
    },
  };
}

/** The top-first answer's columns after WINDOW_COLUMNS': how many of the hosts read first are in the window's set, how many were read. */
const TOP_MATCHED = 23;
const TOP_COUNTS = `COUNT(*) OVER () AS matched, (SELECT COUNT(*) FROM top) AS considered`;
const JOINED = `JOIN edr.hosts h ON h.hid = top_hosts.hid JOIN edr.host_seen hs ON hs.hid = h.hid JOIN latest l ON l.connector_id = h.connector_id AND hs.last_cycle = l.id`;

function hostsTop(q: HostWindowQuery, take: number, apart: boolean): Statement {
  const s = new Sql('pg');
  const w = where(s, q.filter, true);
  const order = orderBy(s, q.sort, false);
  const text = `WITH ${latest(s)},
      top AS MATERIALIZED (SELECT h.hid FROM edr.hosts h ${w.length ? `WHERE ${w.join(' AND ')}` : ''} ORDER BY ${orderBy(s, q.sort, false, apart)} LIMIT ${s.p(take)})
    SELECT ${WINDOW_COLUMNS}, ${TOP_COUNTS} FROM top top_hosts ${JOINED}
    ORDER BY ${order} LIMIT ${s.p(q.limit)} OFFSET ${s.p(q.offset)}`;
  return { text, args: s.args };
}

function lastSeenTop(q: HostWindowQuery, take: number): Statement {
  const s = new Sql('pg');
  const [flag, seen] = sortKeys(s, 'lastSeen', false) as [string, string];
  const dir = q.sort!.desc ? 'DESC' : 'ASC';
  const back = q.sort!.desc ? 'ASC' : 'DESC';
  // The snapshot's hosts by their host_seen row alone (each connector's newest cycle is its own).
  const members = `hs.last_cycle = ANY (ARRAY(SELECT id FROM latest))`;
  const t = s.p(take);
  const w = where(s, q.filter, true);
  // Read whole, the first hosts are all candidates; else those seen before the last of them (strictly: its ties may go on past them).
  const text = `WITH ${latest(s)},
      top AS MATERIALIZED (SELECT hs.hid, ${flag} AS f, ${seen} AS seen FROM edr.host_seen hs WHERE ${members} ORDER BY f ${dir}, seen ${dir} LIMIT ${t}),
      edge AS (SELECT f, seen FROM top ORDER BY f ${back}, seen ${back} LIMIT 1),
      cand AS (SELECT top.hid FROM top, edge WHERE (SELECT COUNT(*) FROM top) < ${t} OR (top.f, top.seen COLLATE "C") ${q.sort!.desc ? '>' : '<'} (edge.f, edge.seen COLLATE "C"))
    SELECT ${WINDOW_COLUMNS}, ${TOP_COUNTS} FROM cand top_hosts ${JOINED}
    ${w.length ? `WHERE ${w.join(' AND ')}` : ''} ORDER BY ${orderBy(s, q.sort, false)} LIMIT ${s.p(q.limit)} OFFSET ${s.p(q.offset)}`;
  return { text, args: s.args };
}
