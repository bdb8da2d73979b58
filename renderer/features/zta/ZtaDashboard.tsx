/**
 * The dashboard itself: where each tenant's data stands, the filters (Customer ID first, then
 * Platform, EDR-Z3), the Risk bands overview (distribution, trend, changes, riskiest hosts) and the
 * assessment-by-host table, with the what-if beside them while it is open (EDR-Z2: the table and
 * the charts then show the what-if's scores).
 *
 * Served in windows (issue 25.3, C-78): the filters' choices, names and columns come from the
 * facets (facets.ts: hosts by connector, customer and platform, no host read); the table's rows,
 * the counts the chart draws and the riskiest hosts are asked of the store, which filters, searches
 * and sorts (useHostWindow.ts), so a million stored hosts cost the window a page of them. While a
 * what-if is open the page shows its tenant's hosts, read whole and rescored in the window (the
 * what-if's sliders answer without a round trip), through the snapshot's index (zta-index.ts).
 */
import { useSettledRange } from '../../components/useSettledRange';
import clsx from 'clsx';
import { FlaskConical, X } from 'lucide-react';
import { startTransition, useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import type { ZtaFacets, ZtaWindow } from '../../../shared/contract-zta';
import { snapshotRow, type ZtaFilter, type ZtaRow, type ZtaSnapshot } from '../../../shared/model/zta';
import type { RiskConfig } from '../../../shared/risk';
import { useConnectors } from '../../api/connectors';
import { useZtaCounts, useZtaOverview, useZtaTenant, useZtaTop } from '../../api/zta';
import { ZTA_FILTERS, ztaFilterOf } from '../../app/search';
import { formatCount } from '../../components/format';
import { ChangesCard, RiskiestCard } from './ChangesCard';
import { ConnectorStrip } from './ConnectorStrip';
import { countsOfRows, type CountsByCustomer } from './distribution';
import { facetView, structuralShape, type FacetView } from './facets';
import { DistributionCard, type DistributionPick } from './DistributionCard';
import { ExportButtons } from './ExportButtons';
import { attributePresence, hostCell, sharedValues, type AttributeColumn, type HostCell, type SharedValues } from './host-columns';
import { HostDetailsDialog } from './HostDetailsDialog';
import { HostTable } from './HostTable';
import { AsOf } from '../../components/AsOf';
import { TrendCard } from './TrendCard';
import { rescoreSnapshot } from './whatif';
import { WhatIfPanel } from './WhatIfPanel';
import { ReportActions } from './report/ReportActions';
import { ZtaFilters } from './ZtaFilters';
import type { ZtaRefinements } from '../../app/search';
import { riskiestRows, useConnectorsById, useHostWindow, windowRow } from './useHostWindow';
import { useSettledSearch } from './useSettledSearch';
import { filterRows, riskiest, sortOrder, structuralMask, ztaIndexOf, ztaViewOf, type ZtaSort, type ZtaSortKey } from './zta-index';

const NO_FILTERS = Object.fromEntries(ZTA_FILTERS.map((k) => [k, ''])) as Pick<ZtaRefinements, (typeof ZTA_FILTERS)[number]>;
const BASE_COLUMNS: readonly ZtaSortKey[] = ['hostname', 'customer', 'hostId', 'vendor', 'platform', 'osAssessment', 'sensorAssessment', 'overallAssessment', 'score', 'band', 'lastSeen'];
/** Defender's words the assessment columns already show over Defender's hosts alone (EDR-Z1). */
const DEFENDER_ASSESSMENTS: readonly ZtaSortKey[] = ['riskLevel', 'exposure', 'health'];

/**
 * The columns shown (EDR-Z3): the common ones; a chosen platform, vendor or connector (one
 * vendor's tenant) brings the attribute columns its hosts report into view, and a column every row shares the value of leaves (chosen
 * by a filter, or `shared` by the hosts shown). Over Defender's hosts alone its risk level,
 * exposure and health are the assessment columns, not repeated.
 */
export function visibleColumns(presence: ReadonlySet<AttributeColumn>, f: ZtaFilter, shared?: SharedValues): Set<ZtaSortKey> {
  const out = new Set<ZtaSortKey>(BASE_COLUMNS);
  if (f.platform || f.vendor || f.connector) for (const a of presence) out.add(a);
  if (f.customer || shared?.customer) out.delete('customer');
  if (f.platform || shared?.platform) out.delete('platform');
  if (f.vendor || shared?.vendor) out.delete('vendor');
  if (shared?.vendor === 'defender') for (const a of DEFENDER_ASSESSMENTS) out.delete(a);
  return out;
}

interface WhatIfState {
  connectorId: string;
  config?: RiskConfig | undefined;
}

export interface ZtaDashboardProps {
  facets: ZtaFacets;
  view: ZtaRefinements;
  refine(patch: Partial<ZtaRefinements>): void;
  openedHost: string;
  openHost(hostId: string): void;
  closeHost(): void;
}

/** What the page shows, from the store's windows or from a what-if's tenant (the same shape). */
interface Shown {
  /** Hosts the filters choose (undefined before the first answer); `exact` false: at least that many. */
  count: number | undefined;
  exact: boolean;
  /** The table's rows are an older filter's or sort's while the new one loads. */
  stale: boolean;
  table: { count: number; cellAt(index: number): HostCell | undefined; answer: string; onRange?(range: { start: number; end: number }): void };
  /** The hosts every filter but the band chooses, counted (the chart); undefined while the first count is on its way. */
  chart: CountsByCustomer | undefined;
  top: ZtaRow[];
  /** The riskiest hosts shown are an earlier filter's while the card's own read is on its way. */
  topStale: boolean;
  unscored: boolean;
  presence: ReadonlySet<AttributeColumn>;
  shared: SharedValues;
  opened: ZtaRow | undefined;
  openedWhatIf: ZtaRow | undefined;
}

type Structural = Pick<ZtaFilter, 'customer' | 'platform' | 'vendor' | 'connector'>;

/** The filter without choices the facets do not know (a customer or connector gone since the address was made) and without an empty search. */
function knownFilterOf(v: FacetView, f: ZtaFilter): ZtaFilter {
  const out: ZtaFilter = { ...f };
  if (out.customer !== undefined && !v.names.has(out.customer)) delete out.customer;
  if (out.connector !== undefined && !v.facets.connectors.some((c) => c.connectorId === out.connector)) delete out.connector;
  if (out.q !== undefined && out.q.trim() === '') delete out.q;
  return out;
}

const withoutBand = (f: ZtaFilter): ZtaFilter => {
  const { band: _band, ...rest } = f;
  return rest;
};

/** The page over the store's windows (no what-if shown). */
function useStoreView(on: boolean, fv: FacetView, filter: ZtaFilter, sort: ZtaSort, structural: Structural, openedHost: string, clicked: ZtaRow | undefined): Shown {
  // The pages of the rows in view are asked for once the scrolling pauses (components/useSettledRange.ts).
  const { range, onRange } = useSettledRange();
  const connectors = fv.facets.connectors;
  const w = useHostWindow(filter, sort, fv.customerOrder, connectors, range, on);
  // The chart's counts of a new search or filter are asked once the table shows its rows: a key's
  // read of the matching hosts is the table's alone first (C-98), the chart follows it.
  const wanted = useMemo(() => withoutBand(filter), [filter]);
  const [counted, setCounted] = useState(wanted);
  if (!w.stale && counted !== wanted) setCounted(wanted);
  const counts = useZtaCounts(on ? (w.stale ? counted : wanted) : undefined);
  // The riskiest hosts: under the table's default sort (riskiest first) the first rows of its first
  // page, which is read anyway; under another sort, a window of their own.
  const riskiestFirst = sort.key === 'score' && sort.desc;
  // Under another sort the card asks for its own, once the typing of a search pauses (the table's
  // read answers each key alone: C-98).
  const card = useSettledSearch(filter, SEARCH_SETTLE_MS);
  const own = useZtaTop(on && !riskiestFirst ? { filter: card.filter, limit: 10 } : undefined);
  const answered = riskiestFirst ? w.first : own.data;
  // While a new filter's rows are on their way the card keeps the last ones (no flash of "no host").
  const [held, setHeld] = useState<ZtaWindow>();
  if (answered && answered !== held) setHeld(answered);
  const topSource = answered ?? held;
  const byId = useConnectorsById(connectors);
  const topRows = useMemo(() => riskiestRows(topSource?.rows ?? [], 10, byId), [topSource, byId]);
  const shape = useMemo(() => structuralShape(fv, structural), [fv, structural]);
  // The opened host: the row it was opened from (at once), else looked up by its ID (an address opened anew).
  const fromRow = clicked?.hostId === openedHost ? clicked : undefined;
  const lookup = useZtaTop(on && openedHost && !fromRow ? { filter: { q: openedHost }, limit: 50 } : undefined, true);
  const openedRaw = lookup.data?.rows.find((r) => r.hostId === openedHost);
  const looked = useMemo(() => (openedRaw ? windowRow(openedRaw, -1, byId.get(openedRaw.connectorId)) : undefined), [openedRaw, byId]);
  const opened = openedHost ? (fromRow ?? looked) : undefined;
  return {
    count: w.total,
    exact: w.exact,
    stale: w.stale,
    // Not counted to the end: one more (loading) row, which reads the next page when scrolled to.
    table: { count: w.total === undefined ? 0 : w.total + (w.exact ? 0 : 1), cellAt: w.cellAt, answer: w.answer, onRange },
    chart: counts.data,
    top: topRows,
    // The card's rows are an earlier search's while its own window waits for the typing to pause or for its answer.
    topStale: riskiestFirst ? w.stale : card.settling || own.isPlaceholderData,
    unscored: topRows.length === 0 && (topSource?.rows.length ?? 0) > 0,
    presence: shape.presence,
    shared: shape.shared,
    opened,
    openedWhatIf: undefined,
  };
}

/** The page over a what-if's tenant, read whole and rescored in the window (undefined `s`: none open). */
function useTenantView(s: ZtaSnapshot | undefined, result: ZtaSnapshot | undefined, filter: ZtaFilter, sort: ZtaSort, structural: Structural, openedHost: string): Shown | undefined {
  const shown = result ?? s;
  const zview = useMemo(() => (s && shown ? ztaViewOf(s, shown) : undefined), [s, shown]);
  const deferred = useDeferredValue(filter);
  const filtered = useMemo(() => (zview ? filterRows(zview, sortOrder(zview, sort), deferred) : undefined), [zview, sort, deferred]);
  const chart = useMemo(() => (zview && filtered ? countsOfRows(zview.snapshot, filtered.anyBand) : undefined), [zview, filtered]);
  const top = useMemo(() => (zview && filtered ? riskiest(zview, filtered.rows).map((i) => snapshotRow(zview.snapshot, i)) : []), [zview, filtered]);
  const mask = useMemo(() => (s ? structuralMask(ztaIndexOf(s), structural) : undefined), [s, structural]);
  const presence = useMemo(() => (s && mask ? attributePresence(s, mask) : new Set<AttributeColumn>()), [s, mask]);
  const shared = useMemo(() => (s && mask ? sharedValues(s, mask) : { customer: false, platform: false, vendor: undefined }), [s, mask]);
  const rows = filtered?.rows;
  const cellAt = useCallback((i: number) => (shown && rows ? hostCell(shown, result ? s : undefined, snapshotRow(shown, rows[i]!)) : undefined), [shown, rows, result, s]);
  if (!s || !shown || !rows) return undefined;
  const i = openedHost ? s.rows.hostId.indexOf(openedHost) : -1;
  const opened = i < 0 ? undefined : snapshotRow(s, i);
  return {
    count: rows.length,
    exact: true,
    stale: deferred !== filter,
    // Back to the top when a filter or the sort changes what is shown, not when the what-if only rescored.
    table: { count: rows.length, cellAt, answer: `${rows.length}:${rows[0] ?? -1}:${sort.key}:${sort.desc}` },
    chart,
    top,
    topStale: deferred !== filter,
    unscored: top.length === 0 && rows.length > 0,
    presence,
    shared,
    opened,
    openedWhatIf: opened && result && result.rows.score[opened.index] !== opened.score ? snapshotRow(result, opened.index) : undefined,
  };
}

export function ZtaDashboard({ facets: f, view, refine, openedHost, openHost, closeHost }: ZtaDashboardProps) {
  const live = useConnectors().data;
  const fv = useMemo(() => facetView(f), [f]);
  const [whatIf, setWhatIf] = useState<WhatIfState>();
  // A transition: the slider and the boxes answer at once, the rescored page follows (and a newer value replaces it).
  const onPreview = useCallback((config: RiskConfig | undefined) => startTransition(() => setWhatIf((w) => (w ? { ...w, config } : w))), []);
  const tenants = useMemo(() => f.connectors.filter((c) => c.cycleId !== null && c.hosts > 0), [f]);
  const tenant = useZtaTenant(whatIf?.connectorId).data;
  const whatIfConfig = whatIf?.config;
  const result = useMemo(() => (whatIfConfig && tenant && tenant.connectors.length === 1 ? rescoreSnapshot(tenant, 0, whatIfConfig) : undefined), [tenant, whatIfConfig]);

  const { customer, platform, band, vendor, connector, q } = view;
  const filter = useMemo(() => knownFilterOf(fv, ztaFilterOf({ customer, platform, band, vendor, connector, q })), [fv, customer, platform, band, vendor, connector, q]);
  const sort = useMemo<ZtaSort>(() => ({ key: view.sort, desc: view.order === 'desc' }), [view.sort, view.order]);
  // The attribute columns follow the structural filters only, so typing a search never moves columns.
  const structural = useMemo<Structural>(() => ({ ...(filter.customer ? { customer: filter.customer } : {}), ...(filter.platform ? { platform: filter.platform } : {}), ...(filter.vendor ? { vendor: filter.vendor } : {}), ...(filter.connector ? { connector: filter.connector } : {}) }), [filter.customer, filter.platform, filter.vendor, filter.connector]);

  const whatIfShown = whatIf !== undefined && tenant !== undefined;
  const local = useTenantView(whatIfShown ? tenant : undefined, result?.snapshot, filter, sort, structural, openedHost);
  // The row a host was opened from: its dialog opens at once, with no lookup.
  const [clicked, setClicked] = useState<ZtaRow>();
  const stored = useStoreView(!whatIfShown, fv, filter, sort, structural, openedHost, clicked);
  const d = local ?? stored;

  const pick = useCallback((p: DistributionPick) => refine(p), [refine]);
  const onSort = useCallback((next: ZtaSort) => refine({ sort: next.key, order: next.desc ? 'desc' : 'asc' }), [refine]);
  const onOpenRow = useCallback(
    (row: ZtaRow) => {
      setClicked(row);
      openHost(row.hostId);
    },
    [openHost],
  );
  const visible = useMemo(() => visibleColumns(d.presence, structural, d.shared), [d.presence, structural, d.shared]);
  const overview = useZtaOverview(structural);

  const total = fv.total;
  const filtering = ZTA_FILTERS.some((k) => view[k] !== '');
  const whatIfTenant = whatIf ? f.connectors.find((c) => c.connectorId === whatIf.connectorId) : undefined;

  const whatIfButton = useRef<HTMLButtonElement>(null);
  const closeWhatIf = () => {
    setWhatIf(undefined);
    whatIfButton.current?.focus();
  };
  const startWhatIf = () => setWhatIf({ connectorId: (filter.connector && tenants.some((t) => t.connectorId === filter.connector) ? filter.connector : tenants[0]?.connectorId) ?? '' });
  const countText =
    d.count === undefined ? '' : !local && d.count === total && !filtering && !d.stale ? `${formatCount(total)} hosts` : `${d.exact ? '' : 'at least '}${formatCount(d.count)} of ${formatCount(local ? (tenant?.rows.hostId.length ?? 0) : total)}`;

  return (
    <div className={clsx('zta-layout', whatIf && 'with-whatif')}>
      <div className="page page-wide zta-page">
        <div className="toolbar">
          <h2>
            Zero trust assessment <span className="count">{formatCount(total)}</span> <AsOf iso={f.asOf} testId="zta-asof" />
          </h2>
          <div className="toolbar-actions">
            <button ref={whatIfButton} type="button" className={clsx('button', whatIf && 'button-active')} aria-pressed={!!whatIf} onClick={() => (whatIf ? setWhatIf(undefined) : startWhatIf())} disabled={tenants.length === 0}>
              <FlaskConical size={14} aria-hidden="true" />
              What-if
            </button>
            <ExportButtons filter={filter} rows={d.count ?? 0} />
            <ReportActions filter={filter} />
          </div>
        </div>
        <ConnectorStrip connectors={f.connectors} live={live} />
        {whatIfTenant ? (
          <p className="zta-whatif-banner" role="note" data-testid="zta-whatif-banner">
            <FlaskConical size={14} aria-hidden="true" />
            <span>
              What-if on <strong>{whatIfTenant.name}</strong>: the table and the charts show its hosts alone, scored under the settings in the panel, as of its last cycle. Nothing is stored until you save.
            </span>
          </p>
        ) : null}
        <div className="zta-filterbar">
          <ZtaFilters facets={fv.filters} connectors={f.connectors} values={{ customer, platform, band, vendor, connector, q }} onChange={refine} />
          {d.count === undefined ? (
            <span className="devices-count muted">Reading the hosts…</span>
          ) : (
            <span className="devices-count" data-testid="zta-count" aria-live="polite">
              {countText}
            </span>
          )}
          {filtering ? (
            <button type="button" className="button button-small button-ghost" onClick={() => refine(NO_FILTERS)}>
              <X size={14} aria-hidden="true" />
              Clear filters
            </button>
          ) : null}
        </div>
        <div className="zta-overview">
          <DistributionCard counts={d.chart ?? NO_COUNTS} band={filter.band ?? ''} whatIf={!!result} customerChosen={!!filter.customer} customerNames={fv.names} onPick={pick} />
          <TrendCard trend={overview.data?.trend} />
          <ChangesCard overview={overview.data} onOpen={openHost} />
          <RiskiestCard hosts={d.top} unscored={d.unscored} onOpen={openHost} whatIf={!!result} stale={d.topStale} />
        </div>
        <HostTable
          count={d.table.count}
          cellAt={d.table.cellAt}
          answer={d.table.answer}
          onRange={d.table.onRange}
          sort={sort}
          onSort={onSort}
          onOpen={onOpenRow}
          visible={visible}
          customerNames={fv.names}
          vendor={d.shared.vendor}
          stale={d.stale}
        />
      </div>
      {whatIf ? (
        <WhatIfPanel
          tenants={tenants}
          connectorId={whatIf.connectorId}
          onTenant={(connectorId) => setWhatIf((w) => (w?.connectorId === connectorId ? w : { connectorId }))}
          onPreview={onPreview}
          result={result}
          onClose={closeWhatIf}
        />
      ) : null}
      {d.opened ? (
        <HostDetailsDialog
          host={d.opened}
          onClose={closeHost}
          whatIf={d.openedWhatIf ? { score: d.openedWhatIf.score, band: d.openedWhatIf.band } : undefined}
          customerName={d.opened ? fv.names.get(d.opened.customerId) : undefined}
        />
      ) : null}
    </div>
  );
}

const NO_COUNTS: CountsByCustomer = { customers: [] };
/** How long a search's typing pauses before the riskiest card's own window follows it. */
const SEARCH_SETTLE_MS = 250;
