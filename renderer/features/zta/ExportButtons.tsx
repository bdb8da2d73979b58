/**
 * Export of what the filters show, to CSV or JSON (issue 11.6): main writes the file in chunks
 * (zta.export.start) and reports `zta.export.progress`; the window shows a progress bar with
 * Cancel. Done, browser mode downloads the file from the address main offers once
 * (`job.downloadUrl`, through an <a download>); the desktop says where it was saved (main asked
 * the operator in its save dialog). The window sends only the filters, never a path.
 *
 * Progress events may arrive before the answer to `start` (browser mode: socket and HTTP are two
 * roads), so every event is kept by job id from the moment the buttons are shown.
 */
import { Download, X } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { ExportFormat, ExportJob } from '../../../shared/contract-zta';
import type { ZtaFilter } from '../../../shared/model/zta';
import { useClient } from '../../api/ApiProvider';
import { useCancelExport, useStartExport } from '../../api/zta';
import { download } from '../../components/download';
import { formatCount } from '../../components/format';
import { Spinner } from '../../components/Spinner';

export function ExportButtons({ filter, rows }: { filter: ZtaFilter; rows: number }) {
  const client = useClient();
  const start = useStartExport();
  const cancel = useCancelExport();
  const [jobs, setJobs] = useState<Record<string, ExportJob>>({});
  const [jobId, setJobId] = useState<string>();
  const finished = useRef(new Set<string>());

  useEffect(() => client.on('zta.export.progress', (job) => setJobs((all) => ({ ...all, [job.jobId]: job }))), [client]);

  const job = jobId ? jobs[jobId] : undefined;
  useEffect(() => {
    if (!job || job.state === 'running' || finished.current.has(job.jobId)) return;
    finished.current.add(job.jobId);
    setJobId(undefined);
    if (job.state === 'done') {
      if (job.downloadUrl) download(job.downloadUrl, job.name);
      else toast.success(`Exported ${formatCount(job.total)} hosts.`, { description: `Saved as ${job.name}.` });
    } else if (job.state === 'cancelled') {
      toast.info('The export was cancelled.', { description: 'No file was left behind.' });
    } else if (job.state === 'failed') {
      toast.error('The export failed.', { description: job.error ?? 'Try again.' });
    }
  }, [job]);

  const run = async (format: ExportFormat) => {
    const answer = await start.mutateAsync({ format, filter });
    // The desktop's save dialog was cancelled: nothing to follow.
    if (answer.state === 'cancelled' && answer.total === 0 && answer.done === 0) return;
    setJobs((all) => (all[answer.jobId] && all[answer.jobId]!.state !== 'running' ? all : { ...all, [answer.jobId]: all[answer.jobId] ?? answer }));
    setJobId(answer.jobId);
  };

  if (job || start.isPending) {
    const percent = job && job.total > 0 ? Math.round((job.done / job.total) * 100) : undefined;
    return (
      <div className="zta-export" role="status" data-testid="zta-export-progress">
        <span className="muted">
          {job ? `Exporting ${job.format.toUpperCase()} ${formatCount(job.done)} / ${formatCount(job.total)}` : 'Starting the export…'}
        </span>
        <span className={percent === undefined ? 'progress-bar zta-export-bar indeterminate' : 'progress-bar zta-export-bar determinate'} role="progressbar" aria-label="Export progress" aria-valuemin={0} aria-valuemax={100} aria-valuenow={percent}>
          <span style={percent === undefined ? undefined : { width: `${percent}%` }} />
        </span>
        {job ? (
          <button type="button" className="button button-small" onClick={() => cancel.mutate({ jobId: job.jobId })} disabled={cancel.isPending}>
            <X size={13} aria-hidden="true" />
            Cancel
          </button>
        ) : (
          <Spinner />
        )}
      </div>
    );
  }
  return (
    <div className="zta-export">
      {(['csv', 'json'] as const).map((format) => (
        <button key={format} type="button" className="button" onClick={() => void run(format)} disabled={rows === 0} title={`Export the ${formatCount(rows)} hosts the filters show`}>
          <Download size={14} aria-hidden="true" />
          Export {format.toUpperCase()}
        </button>
      ))}
    </div>
  );
}
