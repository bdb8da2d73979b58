/**
 * A bulk run as it goes: progress, counts, and the outcome of every row (virtualized; messages
 * wrap). How many calls may be in flight shows only while it runs.
 */
import clsx from 'clsx';
import { useMemo, useState } from 'react';
import type { BulkJobState, BulkRowOutcome, BulkRowResult } from '../../../../shared/model/inventory';
import { Table, type TableColumn } from '../../../components/Table';
import { formatCount } from '../../../components/format';

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
  { id: 'result', header: 'Result', cell: (r) => <span className={clsx('chip', 'status-chip', outcomeChip[r.outcome])}>{r.outcome}</span> },
  {
    id: 'message',
    header: 'Message',
    cell: (r) => {
      const text = r.message ? (r.field ? `${r.field}: ${r.message}` : r.message) : '';
      return <span className={clsx(r.outcome === 'failed' && 'danger-text')}>{text || '—'}</span>;
    },
  },
];

const stateChip = { running: 'chip-accent', completed: 'chip-ok', cancelled: 'chip-warn', failed: 'chip-danger' } as const;

export function BulkJobView({ job, rows, notSent }: { job: BulkJobState; rows: readonly BulkRowResult[]; notSent: number }) {
  const [onlyFailed, setOnlyFailed] = useState(false);
  const failed = useMemo(() => rows.filter((r) => r.outcome === 'failed'), [rows]);
  const filtered = onlyFailed && failed.length > 0;
  const shown = filtered ? failed : rows;
  const percent = job.total ? Math.min(100, Math.round((job.done / job.total) * 100)) : 0;
  const c = job.counts;
  const parts: [string, number][] = job.dryRun
    ? [
        ['valid', c.valid],
        ['failed', c.failed],
        ['cancelled', c.cancelled],
      ]
    : [
        ['onboarded', c.onboarded],
        ...(job.deploy ? ([['deployed', c.deployed]] as [string, number][]) : []),
        ['skipped', c.skipped],
        ['failed', c.failed],
        ['cancelled', c.cancelled],
      ];
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
      <div className={clsx('progress-bar', 'bulk-bar', 'determinate')} role="progressbar" aria-label="Bulk onboarding progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
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
      <Table label="Row results" columns={columns} rows={shown} rowKey={(r) => r.line} template="56px minmax(120px, 1fr) 100px minmax(220px, 2.5fr)" wrap size={{ maxHeight: 300 }} testIds={{ scroll: 'bulk-results' }} rowTestId={(r) => `bulk-row-${r.line}`} />
    </div>
  );
}
