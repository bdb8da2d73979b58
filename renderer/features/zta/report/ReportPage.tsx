/**
 * The printable risk report (issue 11.6, EDR-Z6, EDR-Z7), a page of the window at `#/zta/report` with the
 * dashboard's filters: scope and "as of", the connectors in scope, the band distribution (and per
 * customer), the trend over cycles, the riskiest hosts with their reasons, and what changed in
 * the newest cycle. Printed by the browser (report.css: A4, no window frame, sensible page
 * breaks) or, on the desktop, by main in a hidden window (`print=1`), which waits for
 * `<html data-report-ready="true">` before printing.
 */
import { useSearch } from '@tanstack/react-router';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { DateTime } from '../../../components/Time';
import { Loading } from '../../../components/QueryState';
import { formatCount, formatDuration } from '../../../components/format';
import { useNow } from '../../../components/useNow';
import { NetText } from '../../../components/NetText';
import { ReportToolbar } from './ReportActions';
import { BandChart, TrendChart } from './ReportCharts';
import { BandTable, ChangesSection, ConnectorsTable, CustomersTable, RiskiestTable } from './ReportSections';
import { REPORT_FIELD_MAX, RISKIEST, scopeWords } from './report-model';
import { reportFilter } from './report-search';
import { useReportData } from './useReportData';

export const REPORT_TITLE = 'Northbound risk report';

/**
 * The document while the report is shown: its title (the PDF's and the print's), `report-print`
 * on <html> for `print=1` (no window frame on screen either), and `data-report-ready` once every
 * section has its data ('failed' when the scores cannot be read). Two turns of the event loop
 * after the data arrived, so the charts' SVG is in the page when the PDF window looks.
 */
function useReportDocument(state: 'loading' | 'ready' | 'failed', printOnly: boolean) {
  useEffect(() => {
    const before = document.title;
    document.title = REPORT_TITLE;
    return () => {
      document.title = before;
    };
  }, []);
  useEffect(() => {
    const root = document.documentElement;
    root.classList.toggle('report-print', printOnly);
    return () => root.classList.remove('report-print');
  }, [printOnly]);
  useEffect(() => {
    const root = document.documentElement;
    if (state === 'loading') return;
    let second: ReturnType<typeof setTimeout> | undefined;
    const first = setTimeout(() => {
      second = setTimeout(() => (root.dataset.reportReady = state === 'ready' ? 'true' : 'failed'), 0);
    }, 0);
    return () => {
      clearTimeout(first);
      clearTimeout(second);
      delete root.dataset.reportReady;
    };
  }, [state]);
}

function Section({ id, title, children, note }: { id: string; title: string; children: ReactNode; note?: ReactNode }) {
  return (
    <section className="report-section" aria-labelledby={`report-${id}`} data-testid={`report-section-${id}`}>
      <h2 id={`report-${id}`}>{title}</h2>
      {note ? <p className="small muted">{note}</p> : null}
      {children}
    </section>
  );
}

export function ReportPage() {
  const search = useSearch({ from: '/zta/report' });
  const filter = useMemo(() => reportFilter(search), [search]);
  const printOnly = search.print === '1';
  const data = useReportData(filter);
  useReportDocument(data.state, printOnly);
  const now = useNow();
  const [printedAt] = useState(() => new Date().toISOString());
  const { model, overview, changes } = data;

  let body: ReactNode;
  if (data.state === 'failed') {
    body = (
      <div className="empty" role="alert">
        <p>
          The stored scores could not be read{data.error instanceof Error ? <>: <NetText text={data.error.message} max={REPORT_FIELD_MAX} /></> : '.'}
        </p>
        <button type="button" className="button" onClick={data.retry}>
          Try again
        </button>
      </div>
    );
  } else if (!model || !overview || !changes || data.state !== 'ready') {
    body = (
      <Loading>Gathering the report…</Loading>
    );
  } else if (model.connectors.every((c) => c.cycleId === null)) {
    body = (
      <div className="empty">
        <p>No connector has stored scores yet.</p>
        <p className="small">Add a connector on the Connectors page (or open the demo workspace) and let its first cycle complete.</p>
      </div>
    );
  } else {
    const age = model.asOf ? formatDuration(Math.max(0, (now - Date.parse(model.asOf)) / 1000)) : '';
    body = (
      <>
        <p className="report-asof" data-testid="report-asof">
          Data as of <DateTime iso={model.asOf!} /> ({age} old) · {model.exact ? '' : 'at least '}
          {formatCount(model.total)} host(s)
        </p>
        <Section id="connectors" title="Tenants and connectors">
          <ConnectorsTable connectors={model.connectors} />
        </Section>
        <Section
          id="bands"
          title="Band distribution"
          note={model.exact ? undefined : `More than ${formatCount(model.total)} hosts match this search: the store counted ${formatCount(model.total)} of them, so every count here is a lower bound. A longer search counts every match.`}
        >
          {model.total ? (
            <div className="report-bands-row">
              <BandChart bands={model.bands} />
              <BandTable bands={model.bands} total={model.total} />
            </div>
          ) : (
            <p className="muted">No host matches these filters.</p>
          )}
          {model.customers.length > 1 ? (
            <>
              <h3>Per customer</h3>
              <CustomersTable customers={model.customers} more={model.moreCustomers} />
            </>
          ) : null}
        </Section>
        <Section id="trend" title="Trend over cycles" note={overview.trend.length < 2 ? 'Only one cycle is stored so far: the trend starts with the next one.' : undefined}>
          {overview.trend.length ? <TrendChart trend={overview.trend} /> : null}
        </Section>
        <Section id="riskiest" title={`Riskiest hosts (top ${Math.min(RISKIEST, model.total)})`} note="Why: the indicators that add most to each score, in the scoring's words, with the points each adds.">
          {model.riskiest.length ? <RiskiestTable rows={model.riskiest} reasons={data.reasons} names={model.customerNames} /> : <p className="muted">No host matches these filters.</p>}
        </Section>
        <Section id="changes" title="Changes since the last cycle" note="Each connector's newest cycle against its previous one; the lists hold the hosts these filters show.">
          <ChangesSection changes={changes} names={model.customerNames} />
        </Section>
      </>
    );
  }

  return (
    <div className="page report-page">
      {printOnly ? null : <ReportToolbar filter={filter} />}
      <header className="report-header">
        <h1>Risk report</h1>
        <p className="report-scope" data-testid="report-scope">
          <NetText text={scopeWords(filter, model?.connectors ?? [])} max={REPORT_FIELD_MAX * 3} />
        </p>
        <p className="small muted">
          Northbound · printed <DateTime iso={printedAt} />
        </p>
      </header>
      {body}
    </div>
  );
}
