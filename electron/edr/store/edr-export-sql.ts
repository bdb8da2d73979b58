/**
 * The ZTA export's read (issue 25.3, C-86) as SQL, for both backends: the latest snapshot's hosts of
 * the connectors the views show, matching the dashboard's filter and search (the window's own
 * conditions, edr-window-sql.ts `filteredHostsSql`), in the table's default order exactly as
 * `rowsInOrder` gives it over the snapshot: riskiest first (hosts not assessed after all others),
 * then hostname in code units, then the snapshot's own row order for ties — the connectors in the
 * order the views list them, then host ID as `appendRows` reads a cycle (the database's order).
 * The store reads it a batch at a time (SQLite: one statement iterated on a connection of its own;
 * PostgreSQL: a cursor), never whole.
 */
import type { ZtaFilter } from '../../../shared/model/zta';
import { DEFAULT_RANK, WINDOW_COLUMNS, filteredHostsSql, type Dialect, type Statement } from './edr-window-sql';

/** What the export asks the store for. */
export interface HostExportQuery {
  filter: ZtaFilter;
  /** The connectors shown, in the order the views list them (their hosts' tie order); others are left out. */
  connectors: readonly string[];
  /** Rows read and answered at a time (at least 1). */
  batch: number;
}

/** The export's rows (array rows in WINDOW_COLUMNS' order), every one of them in order; no LIMIT. */
export function exportSql(d: Dialect, q: Pick<HostExportQuery, 'filter' | 'connectors'>): Statement {
  const s = filteredHostsSql(d, q.filter);
  const w = [...s.where];
  if (q.connectors.length === 0) w.push('1 = 0');
  else w.push(`h.connector_id IN (${q.connectors.map((c) => s.p(c)).join(', ')})`);
  // A connector's place in the list (the snapshot's row order), not its ID.
  const place = q.connectors.length ? `(CASE h.connector_id ${q.connectors.map((c, i) => `WHEN ${s.p(c)} THEN ${i}`).join(' ')} END)` : '0';
  const order = [`${DEFAULT_RANK('h.')} DESC`, `${s.c('h.hostname')} ASC`, `${place} ASC`, 'h.host_id ASC'];
  return {
    text: `WITH ${s.cte} SELECT ${WINDOW_COLUMNS} ${s.from} WHERE ${w.join(' AND ')} ORDER BY ${order.join(', ')}`,
    args: s.args,
  };
}
