/**
 * A bulk run as it goes: progress, counts, and the outcome of every row (virtualized; messages
 * wrap). How many calls may be in flight shows only while it runs.
 */
import clsx from 'clsx';
import { useMemo, useState } from 'react';
import type { BulkJobState, BulkRowOutcome, BulkRowResult } from '../../../../shared/model/inventory';
import { Table, type TableColumn } from '../../../components/Table';
import { formatCount } from '../../../components/format';
import { resultLabel } from './bulk-result';

const outcomeChip: Record<BulkRowOutcome, string | undefined> = {
  pending: undefined,
  onboarded: 'chip-ok',
  deployed: 'chip-ok',
  skipped: 'chip-accent',
  failed: 'chip-danger',
  cancelled: 'chip-warn',
  valid: 'chip-ok',
};

const columns: TableColumn<BulkRowResult>[] = [
  { id: 'line', header: 'Line', cell: (r) => <span className="mono">{r.line}</span> },
  { id: 'device', header: 'Device', cell: (r) => <span className="mono">{r.deviceName}</span> },
  {
    id: 'result',
    header: 'Result',
    cell: (r) => <span className={clsx('chip', 'status-chip', r.change === 'exists' || (r.change === 'replaced' && r.outcome !== 'failed') ? 'chip-warn' : outcomeChip[r.outcome])}>{resultLabel(r)}</span>,
  },
  {
    id: 'message',
    header: 'Message',
    cell: (r) => {
      const text = r.message ? (r.field ? `${r.field}: ${r.message}` : r.message) : '';
      return <span className={clsx(r.outcome === 'failed' && 'danger-text')}>{text || '—'}</span>;
    },
  },
];

/** What the counters say: by what each row did to the node (created, replaced, left alone), then failures; zeros of the rarer ones left out. */
function countsOf(job: BulkJobState, rows: readonly BulkRowResult[]): Array<[string, number]> {
  const n = (f: (r: BulkRowResult) => boolean) => rows.reduce((k, r) => k + (f(r) ? 1 : 0), 0);
  const sent = (r: BulkRowResult) => r.outcome === 'onboarded' || r.outcome === 'deployed';
  const c = job.counts;
  const exists = n((r) => r.outcome === 'skipped' && r.change === 'exists');
  const out: Array<[string, number]> = job.dryRun
    ? [
        ['would create', n((r) => r.outcome === 'valid' && r.change === 'created')],
        ['would replace', n((r) => r.outcome === 'valid' && r.change === 'replaced')],
        ['skipped (exists)', exists],
        ['unchanged', c.skipped - exists],
        ['failed', c.failed],
      ]
    : [
        ['created', n((r) => sent(r) && r.change === 'created')],
        ['replaced', n((r) => sent(r) && r.change === 'replaced')],
        ...(job.deploy ? ([['deployed', c.deployed]] as Array<[string, number]>) : []),
        ['skipped (exists)', exists],
        ['unchanged', c.skipped - exists],
        ['failed', c.failed],
      ];
  out.push(['cancelled', c.cancelled]);
  return out.filter(([k, v], i) => v > 0 || i === 0 || k === 'failed');
}

const stateChip = { running: 'chip-accent', completed: 'chip-ok', cancelled: 'chip-warn', failed: 'chip-danger' } as const;

export function BulkJobView({ job, rows, notSent }: { job: BulkJobState; rows: readonly BulkRowResult[]; notSent: number }) {
  const [onlyFailed, setOnlyFailed] = useState(false);
  const failed = useMemo(() => rows.filter((r) => r.outcome === 'failed'), [rows]);
  const filtered = onlyFailed && failed.length > 0;
  const shown = filtered ? failed : rows;
  const percent = job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : 0;
  // This job's rows (a retry's view also lists the earlier run's, which its counters do not count).
  const parts = useMemo(() => countsOf(job, job.rows), [job]);
  return (
    <div className="bulk-job" data-testid="bulk-job" data-state={job.state}>
      <div className="bulk-job-head">
        <strong>{job.dryRun ? 'Dry run' : job.deploy ? 'Onboarding and deploying' : 'Onboarding'}</strong>
        <span className={clsx('chip', stateChip[job.state])}>{job.state}</span>
        <span className="mono" data-testid="bulk-progress-text">
          {formatCount(job.done)} / {formatCount(job.total)}
        </span>
        {job.state === 'running' ? <span className="muted small">up to {job.concurrency} calls in flight</span> : null}
      </div>
      <div className={clsx('progress-bar', 'bulk-bar', 'determinate', job.state !== 'running' && 'settled')} role="progressbar" aria-label="Bulk onboarding progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
        <span style={{ width: `${percent}%` }} />
      </div>
      <p className="bulk-counts" data-testid="bulk-counts">
        {parts.map(([k, v]) => (
          <span key={k}>
            <strong>{formatCount(v)}</strong> {k}
          </span>
        ))}
        {notSent ? (
          <span className="danger-text">
            <strong>{formatCount(notSent)}</strong> not sent (errors in the file)
          </span>
        ) : null}
      </p>
      {job.error ? (
        <p className="callout callout-error" role="alert">
          <strong>{job.error}</strong>
        </p>
      ) : null}
      <label className="checkbox-line bulk-only-failed">
        <input type="checkbox" checked={filtered} onChange={(e) => setOnlyFailed(e.target.checked)} disabled={!failed.length} />
        Only failed rows ({formatCount(failed.length)})
      </label>
      <Table label="Row results" columns={columns} rows={shown} rowKey={(r) => r.line} template="56px minmax(120px, 1fr) 136px minmax(220px, 2.5fr)" wrap size={{ maxHeight: 300 }} testIds={{ scroll: 'bulk-results' }} rowTestId={(r) => `bulk-row-${r.line}`} />
    </div>
  );
}
