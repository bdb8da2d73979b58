/**
 * The dashboard itself: where each tenant's data stands, the filters (Customer ID first, then
 * Platform, EDR-Z3), the Risk bands overview (distribution, trend, changes, riskiest hosts) and the
 * assessment-by-host table, with the what-if beside them while it is open (EDR-Z2: the table and
 * the charts then show the what-if's scores). Search, filters and sort run on the snapshot's index
 * (zta-index.ts) in the window; the filter reaches the table deferred (`useDeferredValue`), so
 * typing never waits for 100,000 rows.
 */
import clsx from 'clsx';
import { FlaskConical, X } from 'lucide-react';
import { startTransition, useCallback, useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { snapshotRow, type ZtaFilter, type ZtaRow, type ZtaSnapshot } from '../../../shared/model/zta';
import type { RiskConfig } from '../../../shared/risk';
import { useConnectors } from '../../api/connectors';
import { useZtaOverview } from '../../api/zta';
import { ZTA_FILTERS, ztaFilterOf } from '../../app/search';
import { formatCount } from '../../components/format';
import { ChangesCard, RiskiestCard } from './ChangesCard';
import { ConnectorStrip } from './ConnectorStrip';
import { customerNames } from './customer-names';
import { DistributionCard, type DistributionPick } from './DistributionCard';
import { ExportButtons } from './ExportButtons';
import { attributePresence, sharedValues, type AttributeColumn, type SharedValues } from './host-columns';
import { HostDetailsDialog } from './HostDetailsDialog';
import { HostTable } from './HostTable';
import { AsOf } from '../../components/AsOf';
import { TrendCard } from './TrendCard';
import { rescoreSnapshot } from './whatif';
import { WhatIfPanel } from './WhatIfPanel';
import { ReportActions } from './report/ReportActions';
import { ZtaFilters } from './ZtaFilters';
import type { ZtaRefinements } from '../../app/search';
import { filterRows, knownFilter, riskiest, sortOrder, structuralMask, ztaIndexOf, ztaViewOf, type ZtaSort, type ZtaSortKey } from './zta-index';

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
  snapshot: ZtaSnapshot;
  view: ZtaRefinements;
  refine(patch: Partial<ZtaRefinements>): void;
  openedHost: string;
  openHost(hostId: string): void;
  closeHost(): void;
}

export function ZtaDashboard({ snapshot: s, view, refine, openedHost, openHost, closeHost }: ZtaDashboardProps) {
  const live = useConnectors().data;
  const [whatIf, setWhatIf] = useState<WhatIfState>();
  // A transition: the slider and the boxes answer at once, the rescored page follows (and a newer value replaces it).
  const onPreview = useCallback((config: RiskConfig | undefined) => startTransition(() => setWhatIf((w) => (w ? { ...w, config } : w))), []);
  const tenants = useMemo(() => s.connectors.filter((c) => c.cycleId !== null && c.hosts > 0), [s]);
  const whatIfIndex = whatIf ? s.connectors.findIndex((c) => c.connectorId === whatIf.connectorId) : -1;
  const whatIfConfig = whatIf?.config;
  const result = useMemo(() => (whatIfConfig && whatIfIndex >= 0 ? rescoreSnapshot(s, whatIfIndex, whatIfConfig) : undefined), [s, whatIfIndex, whatIfConfig]);
  const shown = result?.snapshot ?? s;
  const zview = useMemo(() => ztaViewOf(s, shown), [s, shown]);

  const { customer, platform, band, vendor, connector, q } = view;
  const filter = useMemo(() => knownFilter(s, ztaFilterOf({ customer, platform, band, vendor, connector, q })), [s, customer, platform, band, vendor, connector, q]);
  const deferred = useDeferredValue(filter);
  const sort = useMemo<ZtaSort>(() => ({ key: view.sort, desc: view.order === 'desc' }), [view.sort, view.order]);
  // One pass over the index per keystroke: the table's rows in its order.
  const filtered = useMemo(() => filterRows(zview, sortOrder(zview, sort), deferred), [zview, sort, deferred]);
  // The charts and the riskiest hosts follow a new filter in a transition of their own once the
  // table has its rows: drawing them (recharts) costs more than the table, and a keystroke may
  // interrupt it. New scores under the same filters (a what-if step, a new cycle) are charted in
  // the render that shows them: there the chart is what the operator watches. What they count
  // does not depend on the order, so a new sort does not redraw them.
  const [settled, setCharted] = useState({ zview, filter: deferred, matching: filtered });
  const charted = settled.filter === deferred && settled.zview !== zview ? { zview, filter: deferred, matching: filtered } : settled;
  useEffect(() => {
    if (settled.zview !== zview || settled.filter !== deferred) startTransition(() => setCharted({ zview, filter: deferred, matching: filtered }));
  }, [settled, zview, deferred, filtered]);
  const chartedView = charted.zview;
  const chartedRows = charted.matching.rows;
  const top = useMemo(() => riskiest(chartedView, chartedRows).map((i) => snapshotRow(chartedView.snapshot, i)), [chartedView, chartedRows]);
  const pick = useCallback((p: DistributionPick) => refine(p), [refine]);
  const onSort = useCallback((next: ZtaSort) => refine({ sort: next.key, order: next.desc ? 'desc' : 'asc' }), [refine]);
  const onOpenRow = useCallback((row: ZtaRow) => openHost(row.hostId), [openHost]);

  // The attribute columns follow the structural filters only, so typing a search never moves columns.
  const structural = useMemo(() => ({ ...(filter.customer ? { customer: filter.customer } : {}), ...(filter.platform ? { platform: filter.platform } : {}), ...(filter.vendor ? { vendor: filter.vendor } : {}), ...(filter.connector ? { connector: filter.connector } : {}) }), [filter.customer, filter.platform, filter.vendor, filter.connector]);
  const mask = useMemo(() => structuralMask(ztaIndexOf(s), structural), [s, structural]);
  const presence = useMemo(() => attributePresence(s, mask), [s, mask]);
  const shared = useMemo(() => sharedValues(s, mask), [s, mask]);
  const visible = useMemo(() => visibleColumns(presence, structural, shared), [presence, structural, shared]);
  const names = useMemo(() => customerNames(s), [s]);
  const overview = useZtaOverview(structural);

  const total = s.rows.hostId.length;
  const filtering = ZTA_FILTERS.some((k) => view[k] !== '');
  const opened = useMemo(() => {
    if (!openedHost) return undefined;
    const i = s.rows.hostId.indexOf(openedHost);
    return i < 0 ? undefined : snapshotRow(s, i);
  }, [s, openedHost]);
  const openedWhatIf = opened && result && result.snapshot.rows.score[opened.index] !== opened.score ? snapshotRow(result.snapshot, opened.index) : undefined;
  const whatIfTenant = whatIf ? s.connectors.find((c) => c.connectorId === whatIf.connectorId) : undefined;

  const whatIfButton = useRef<HTMLButtonElement>(null);
  const closeWhatIf = () => {
    setWhatIf(undefined);
    whatIfButton.current?.focus();
  };
  const startWhatIf = () => setWhatIf({ connectorId: (filter.connector && tenants.some((t) => t.connectorId === filter.connector) ? filter.connector : tenants[0]?.connectorId) ?? '' });

  return (
    <div className={clsx('zta-layout', whatIf && 'with-whatif')}>
      <div className="page page-wide zta-page">
        <div className="toolbar">
          <h2>
            Zero trust assessment <span className="count">{formatCount(total)}</span> <AsOf iso={s.asOf} testId="zta-asof" />
          </h2>
          <div className="toolbar-actions">
            <button ref={whatIfButton} type="button" className={clsx('button', whatIf && 'button-active')} aria-pressed={!!whatIf} onClick={() => (whatIf ? setWhatIf(undefined) : startWhatIf())} disabled={tenants.length === 0}>
              <FlaskConical size={14} aria-hidden="true" />
              What-if
            </button>
            <ExportButtons filter={filter} rows={filtered.rows.length} />
            <ReportActions filter={filter} />
          </div>
        </div>
        <ConnectorStrip connectors={s.connectors} live={live} />
        {whatIfTenant ? (
          <p className="zta-whatif-banner" role="note" data-testid="zta-whatif-banner">
            <FlaskConical size={14} aria-hidden="true" />
            <span>
              What-if on <strong>{whatIfTenant.name}</strong>: the table and the charts show its hosts scored under the settings in the panel, as of its last cycle. Nothing is stored until you save.
            </span>
          </p>
        ) : null}
        <div className="zta-filterbar">
          <ZtaFilters snapshot={s} values={{ customer, platform, band, vendor, connector, q }} onChange={refine} />
          <span className="devices-count" data-testid="zta-count" aria-live="polite">
            {filtered.rows.length === total && deferred === filter ? `${formatCount(total)} hosts` : `${formatCount(filtered.rows.length)} of ${formatCount(total)}`}
          </span>
          {filtering ? (
            <button type="button" className="button button-small button-ghost" onClick={() => refine(NO_FILTERS)}>
              <X size={14} aria-hidden="true" />
              Clear filters
            </button>
          ) : null}
        </div>
        <div className="zta-overview">
          <DistributionCard shown={charted.zview.snapshot} rows={charted.matching.anyBand} band={filter.band ?? ''} whatIf={!!result} customerChosen={!!filter.customer} customerNames={names} onPick={pick} />
          <TrendCard trend={overview.data?.trend} />
          <ChangesCard overview={overview.data} onOpen={openHost} />
          <RiskiestCard hosts={top} unscored={top.length === 0 && chartedRows.length > 0} onOpen={openHost} whatIf={!!result} />
        </div>
        <HostTable
          shown={shown}
          stored={result ? s : undefined}
          rows={filtered.rows}
          sort={sort}
          onSort={onSort}
          onOpen={onOpenRow}
          visible={visible}
          customerNames={names}
          vendor={shared.vendor}
          stale={deferred !== filter}
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
      {opened ? (
        <HostDetailsDialog host={opened} onClose={closeHost} whatIf={openedWhatIf ? { score: openedWhatIf.score, band: openedWhatIf.band } : undefined} customerName={names[s.rows.customer[opened.index]!]} />
      ) : null}
    </div>
  );
}
