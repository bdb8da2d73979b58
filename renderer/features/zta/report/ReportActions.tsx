/**
 * The risk report's actions (EDR-Z7). On the dashboard (`ReportActions`): "Print report" opens the
 * report's page for the dashboard's filters, and on the desktop "Save as PDF" asks main to print
 * it in a hidden window and save it where the operator picks (zta.report.pdf; the window never
 * names a file). On the report's page (`ReportToolbar`): Print (the browser's print dialog, which
 * also saves as PDF), Save as PDF on the desktop, and the way back to the dashboard.
 */
import { useMutation } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { ArrowLeft, FileDown, Printer } from 'lucide-react';
import { toast } from 'sonner';
import type { ZtaFilter } from '../../../../shared/model/zta';
import { useClient } from '../../../api/ApiProvider';
import { useAppInfo } from '../../../api/app';
import { reportSearchOf } from './report-search';

function SavePdfButton({ filter }: { filter: ZtaFilter }) {
  const client = useClient();
  const save = useMutation({
    mutationFn: () => client.invoke('zta.report.pdf', { filter }),
    onSuccess: (r) => {
      if (r.saved) toast.success('Risk report saved', { description: r.name });
    },
  });
  return (
    <button type="button" className="button" onClick={() => save.mutate()} disabled={save.isPending}>
      <FileDown size={14} aria-hidden="true" />
      {save.isPending ? 'Saving PDF…' : 'Save as PDF'}
    </button>
  );
}

const useDesktop = () => useAppInfo().data?.mode === 'desktop';

/** For the dashboard's toolbar: the report of what the filters show. */
export function ReportActions({ filter }: { filter: ZtaFilter }) {
  const desktop = useDesktop();
  return (
    <div className="report-actions" role="group" aria-label="Risk report">
      <Link to="/zta/report" search={reportSearchOf(filter)} className="button">
        <Printer size={14} aria-hidden="true" />
        Print report
      </Link>
      {desktop ? <SavePdfButton filter={filter} /> : null}
    </div>
  );
}

/** The report page's own toolbar (never printed). */
export function ReportToolbar({ filter }: { filter: ZtaFilter }) {
  const desktop = useDesktop();
  return (
    <div className="toolbar report-toolbar">
      <Link to="/zta" search={filter} className="button button-ghost">
        <ArrowLeft size={14} aria-hidden="true" />
        Back to the dashboard
      </Link>
      <div className="toolbar-actions">
        {desktop ? <SavePdfButton filter={filter} /> : null}
        <button type="button" className="button button-primary" onClick={() => window.print()}>
          <Printer size={14} aria-hidden="true" />
          Print report
        </button>
      </div>
    </div>
  );
}
