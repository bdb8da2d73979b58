/**
 * Bulk onboarding from a CSV file: every row is validated here first (bad rows are reported with
 * line, field and message and never sent), the valid ones go to main as one job
 * (`onboarding.start`), whose progress events fill in the per-row results. Rows that failed for
 * a reason a retry could fix (the node refused them, or they were not sent) can be retried as a
 * new job; rows whose data the console refused (`dataError`, e.g. a dry run's "no such
 * organization") cannot. The results download as CSV.
 */
import { Download, FileUp, Play, RotateCcw, Square } from 'lucide-react';
import { useMemo, useState } from 'react';
import { toast } from 'sonner';
import { AppError } from '../../../../shared/model/errors';
import type { BulkRowResult } from '../../../../shared/model/inventory';
import type { ProfileView } from '../../../../shared/model/profile';
import { useCancelOnboarding, useOnboardingJob, useStartOnboarding } from '../../../api/inventory';
import { Dialog } from '../../../components/Dialog';
import { download } from '../../../components/download';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { Spinner } from '../../../components/Spinner';
import { formatCount } from '../../../components/format';
import { BulkJobView } from './BulkJobView';
import { useBulkSession } from './bulk-session';
import { BulkPrepare, type BulkOptions } from './BulkPrepare';
import { refusedCsv, type ParsedCsv } from './csv';
import { resultsCsv } from './csv-export';
import { readDeviceCsvFile } from './csv-file';
import { countOf as plural } from '../../../../shared/text';

/** Rows of earlier runs with the current run's outcomes laid over them, by line. */
function overlay(earlier: readonly BulkRowResult[], current: readonly BulkRowResult[] | undefined): readonly BulkRowResult[] {
  if (!current) return earlier;
  if (earlier.length === 0) return current;
  const byLine = new Map(earlier.map((r) => [r.line, r]));
  for (const r of current) byLine.set(r.line, r);
  return [...byLine.values()].sort((a, b) => a.line - b.line);
}

export function BulkOnboardingDialog({ profile, onClose }: { profile: ProfileView; onClose(): void }) {
  const [session, update, clearSession] = useBulkSession(profile.id);
  const { file, parsed, options, jobId, earlier } = session;
  const [parsing, setParsing] = useState(false);
  const [failure, setFailure] = useState<AppError>();
  const start = useStartOnboarding();
  const cancel = useCancelOnboarding();
  const job = useOnboardingJob(jobId).data;
  const rows = useMemo(() => overlay(earlier, job?.rows), [earlier, job?.rows]);
  // A row whose data the console refused fails the same way again: only the others are retried.
  const retryable = useMemo(() => rows.filter((r) => r.outcome === 'failed' && !r.dataError), [rows]);
  const running = job?.state === 'running';

  const pick = async (f: File | undefined) => {
    update({ file: f, parsed: undefined });
    setFailure(undefined);
    if (!f) return;
    setParsing(true);
    try {
      update({ parsed: await readDeviceCsvFile(f) });
    } catch (e) {
      update({ parsed: refusedCsv(`The file could not be read: ${e instanceof Error ? e.message : String(e)}`) });
    } finally {
      setParsing(false);
    }
  };

  const run = async (lines: ParsedCsv['valid'], opts: BulkOptions, keep: readonly BulkRowResult[]) => {
    setFailure(undefined);
    try {
      const started = await start.mutateAsync({ profileId: profile.id, rows: lines, dryRun: opts.dryRun, deploy: opts.deploy, replace: opts.replace, concurrency: opts.concurrency });
      update({ earlier: keep, jobId: started.jobId });
    } catch (e) {
      setFailure(e instanceof AppError ? e : new AppError('internal', e instanceof Error ? e.message : String(e), 'Try again.'));
    }
  };

  // Rows of the last dry run whose device is on the node with another record (the confirmation names them).
  const exists = job?.dryRun ? rows.filter((r) => r.change === 'exists' || r.change === 'replaced').length : 0;

  // A run that writes to the node asks first (a dry run does not).
  const [asking, setAsking] = useState<{ lines: ParsedCsv['valid']; opts: BulkOptions; keep: readonly BulkRowResult[] }>();
  const ask = (lines: ParsedCsv['valid'], opts: BulkOptions, keep: readonly BulkRowResult[]) => {
    if (opts.dryRun) void run(lines, opts, keep);
    else setAsking({ lines, opts, keep });
  };

  const retryFailed = () => {
    if (!parsed || !job) return;
    const lines = new Set(retryable.map((r) => r.line));
    ask(
      parsed.valid.filter((v) => lines.has(v.line)),
      { dryRun: job.dryRun, deploy: job.deploy, replace: job.replace, concurrency: job.concurrency as BulkOptions['concurrency'] },
      rows,
    );
  };

  const reset = () => update({ jobId: undefined, earlier: [], file: undefined, parsed: undefined });

  // A running job stays in the session, so Bulk onboard (CSV)… opens on it again; anything else
  // closed is done with.
  const close = () => {
    if (running) toast.info('The bulk onboarding goes on in the background.', { description: 'Bulk onboard (CSV)… shows it again; the Devices page shows the devices as they are onboarded.' });
    else clearSession();
    onClose();
  };

  const valid = parsed?.valid.length ?? 0;
  const canStart = !!parsed && !parsed.fileError && valid > 0 && !start.isPending && !parsing;
  const notSent = parsed?.badLines.size ?? 0;

  const footer = !job ? (
    <>
      <button type="button" className="button" onClick={close}>
        Cancel
      </button>
      <button type="button" className="button button-primary" disabled={!canStart} onClick={() => parsed && ask(parsed.valid, options, [])} data-testid="bulk-start">
        {start.isPending ? <Spinner /> : <Play size={14} aria-hidden="true" />}
        {options.dryRun ? 'Start dry run' : 'Start'}
        {valid ? ` (${formatCount(valid)} ${valid === 1 ? 'device' : 'devices'})` : ''}
      </button>
    </>
  ) : running ? (
    <>
      <button type="button" className="button" onClick={close}>
        Close (keeps running)
      </button>
      <button type="button" className="button button-danger" onClick={() => cancel.mutate({ jobId: job.jobId })} disabled={cancel.isPending}>
        {cancel.isPending ? <Spinner /> : <Square size={14} aria-hidden="true" />}
        Cancel job
      </button>
    </>
  ) : (
    <>
      <button type="button" className="button" onClick={reset}>
        <FileUp size={14} aria-hidden="true" />
        Another file
      </button>
      <button type="button" className="button" onClick={() => parsed && download(new Blob([resultsCsv(parsed, { ...job, rows: [...rows] })], { type: 'text/csv;charset=utf-8' }), `${file?.name.replace(/\.csv$/i, '') ?? 'devices'}-results.csv`)}>
        <Download size={14} aria-hidden="true" />
        Download results
      </button>
      {retryable.length ? (
        <button type="button" className="button" onClick={retryFailed} disabled={start.isPending}>
          {start.isPending ? <Spinner /> : <RotateCcw size={14} aria-hidden="true" />}
          Retry failed rows ({formatCount(retryable.length)})
        </button>
      ) : null}
      {job.dryRun && parsed ? (
        <button type="button" className="button" onClick={() => ask(parsed.valid, { ...options, dryRun: false }, [])} disabled={start.isPending}>
          <Play size={14} aria-hidden="true" />
          Onboard for real
        </button>
      ) : null}
      <button type="button" className="button button-primary" onClick={close} data-autofocus>
        Done
      </button>
    </>
  );

  return (
    <Dialog title="Bulk onboarding from CSV" description={`Onboard many devices on ${profile.name} at once.`} onClose={close} size="lg" testId="bulk-onboarding" footer={footer}>
      {asking ? (
        <ConfirmDialog
          title={`Onboard ${formatCount(asking.lines.length)} ${asking.lines.length === 1 ? 'device' : 'devices'} on ${profile.name}?`}
          confirmLabel="Start"
          onConfirm={() => run(asking.lines, asking.opts, asking.keep)}
          onClose={() => setAsking(undefined)}
        >
          <p>
            Each new device's record is written to {profile.name}
            {asking.opts.deploy ? ' and then deployed' : ''}, {asking.opts.concurrency} at a time. Rows already on the node with the same record are skipped.
          </p>
          <p data-testid="bulk-confirm-replace">
            {asking.opts.replace ? (
              <>
                <strong>Devices already on the node with another record are replaced</strong> by the file’s
                {exists ? ` (the dry run found ${plural(exists, 'such row', 'such rows')})` : ''}.
              </>
            ) : (
              <>
                Devices already on the node with another record are <strong>left as they are</strong> (skipped, listed with what differs)
                {exists ? `: the dry run found ${plural(exists, 'such row', 'such rows')}` : ''}.
              </>
            )}
          </p>
        </ConfirmDialog>
      ) : null}
      {failure ? (
        <p className="callout callout-error" role="alert" data-testid="bulk-failure">
          <strong>{failure.message}</strong>
          {failure.hint ? <span>{failure.hint}</span> : null}
        </p>
      ) : null}
      {job ? <BulkJobView job={job} rows={rows} notSent={notSent} /> : <BulkPrepare file={file} parsed={parsed} parsing={parsing} onFile={(f) => void pick(f)} options={options} onOptions={(o) => update({ options: o })} />}
    </Dialog>
  );
}
