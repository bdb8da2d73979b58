/**
 * Before a bulk run: the template, the file, every problem of it (line, column, what to fix;
 * wrapped, never cut, in a list that scrolls), and the run's options.
 */
import { Download, FileSpreadsheet } from 'lucide-react';
import { useEffect, useId, useMemo, useState } from 'react';
import { ChoiceOption } from '../../../components/Field';
import { Table, type TableColumn } from '../../../components/Table';
import { formatBytes, formatCount } from '../../../components/format';
import type { ParsedCsv, RowIssue } from './csv';
import { templateCsv } from './csv-export';
import type { Delimiter } from './csv-read';
import { countOf as plural } from '../../../../shared/text';

export interface BulkOptions {
  dryRun: boolean;
  deploy: boolean;
  /** A device already on the node with another record is replaced (off: such rows are skipped and listed with what differs). */
  replace: boolean;
  concurrency: 1 | 4 | 10;
}

const issueColumns: TableColumn<RowIssue>[] = [
  { id: 'line', header: 'Line', cell: (r) => <span className="mono">{r.line}</span> },
  { id: 'device', header: 'Device', cell: (r) => <span className="mono">{r.deviceName || '—'}</span> },
  { id: 'column', header: 'Column', cell: (r) => (r.column ? <code>{r.column}</code> : <span className="muted">whole line</span>) },
  { id: 'message', header: 'Problem', cell: (r) => <span>{r.message}</span> },
];

const SEPARATED_BY: Record<Delimiter, string> = { ',': '', ';': ' Values separated by semicolons.', '\t': ' Values separated by tabs.' };

/** A Blob link to the template, made once and released with the dialog. */
function TemplateLink() {
  const [url, setUrl] = useState<string>();
  useEffect(() => {
    const u = URL.createObjectURL(new Blob([templateCsv()], { type: 'text/csv;charset=utf-8' }));
    setUrl(u);
    return () => URL.revokeObjectURL(u);
  }, []);
  return (
    <a className="button button-small" href={url} download="northbound-devices-template.csv" data-testid="csv-template">
      <Download size={14} aria-hidden="true" />
      Download template
    </a>
  );
}

export function BulkPrepare({ file, parsed, parsing, onFile, options, onOptions }: { file: File | undefined; parsed: ParsedCsv | undefined; parsing: boolean; onFile(f: File | undefined): void; options: BulkOptions; onOptions(o: BulkOptions): void }) {
  const fileId = useId();
  const badRows = parsed?.badLines.size ?? 0;
  const issues = useMemo(() => parsed?.issues ?? [], [parsed]);
  // A file refused as a whole (not text, no header) has no rows to count.
  const counted = parsed && (!parsed.fileError || parsed.records.length > 0);
  return (
    <div className="form bulk-prepare">
      <div className="bulk-file-row">
        <div className="field">
          <label htmlFor={fileId}>CSV file</label>
          <input id={fileId} type="file" accept=".csv,text/csv" onChange={(e) => onFile(e.target.files?.[0])} data-testid="csv-file" aria-invalid={parsed?.fileError ? true : undefined} />
        </div>
        <TemplateLink />
      </div>
      <p className="field-hint">
        Header line <code>deviceName,siteId,orgName,serialNumber,deviceGroup,country,latitude,longitude</code> (any order, any letter case), one device per line; UTF-8 text, values separated by commas, semicolons or tabs. A device already on the node with
        the same record is left as it is; one with the same name and another record is skipped unless you choose <em>Replace devices that exist</em>.
      </p>
      {file && parsed && !parsing ? (
        <p className="bulk-summary" data-testid="csv-summary">
          <FileSpreadsheet size={14} aria-hidden="true" />
          {counted ? (
            <span>
              {file.name}, {formatBytes(file.size)}: <strong>{formatCount(parsed.records.length)}</strong> rows, <strong>{formatCount(parsed.valid.length)}</strong> valid
              {badRows ? (
                <>
                  , <strong className="danger-text">{formatCount(badRows)}</strong> with errors
                </>
              ) : null}
              .{SEPARATED_BY[parsed.delimiter]}
              {parsed.ignoredColumns.length ? ` Ignored columns: ${parsed.ignoredColumns.join(', ')}.` : ''}
            </span>
          ) : (
            <span>
              {file.name}, {formatBytes(file.size)}.
            </span>
          )}
        </p>
      ) : parsing ? (
        <p className="muted">Reading the file…</p>
      ) : null}
      {parsed?.fileError ? (
        <p className="callout callout-error" role="alert" data-testid="csv-file-error">
          <strong>{parsed.fileError}</strong>
        </p>
      ) : null}
      {badRows && !parsed?.fileError ? (
        <div className="bulk-issues" data-testid="csv-issues">
          <p className="callout callout-warn" role="alert">
            <strong>
              {plural(badRows, 'row has', 'rows have')} errors and will not be sent.
            </strong>
            <span data-testid="csv-issue-count">
              {plural(issues.length, 'problem', 'problems')} below. Fix them in the file and choose it again, or start with the {plural(parsed!.valid.length, 'valid row', 'valid rows')}.
            </span>
          </p>
          <Table
            label={`Problems in the file (${formatCount(issues.length)})`}
            columns={issueColumns}
            rows={issues}
            rowKey={(r) => `${r.line}:${r.field}:${r.message}`}
            template="56px minmax(90px, 1fr) minmax(90px, 0.8fr) minmax(220px, 3fr)"
            wrap
            size={{ maxHeight: 260 }}
            testIds={{ scroll: 'csv-issue-list' }}
            rowTestId={(r) => `csv-issue-${r.line}`}
          />
        </div>
      ) : null}
      <fieldset className="radio-group bulk-options">
        <legend>Options</legend>
        <div className="bulk-options-grid">
          <ChoiceOption type="checkbox" label="Dry run" hint="Check every row against the node without saving anything." checked={options.dryRun} onChange={(e) => onOptions({ ...options, dryRun: e.target.checked, deploy: e.target.checked ? false : options.deploy })} />
          <ChoiceOption type="checkbox" label="Deploy after onboarding" hint="Start a deployment task for each onboarded device." checked={options.deploy} disabled={options.dryRun} onChange={(e) => onOptions({ ...options, deploy: e.target.checked })} />
          <ChoiceOption
            type="checkbox"
            label="Replace devices that exist"
            hint="A row whose device is already on the node with another record replaces that record. Off: such rows are skipped and listed with the fields that differ."
            checked={options.replace}
            onChange={(e) => onOptions({ ...options, replace: e.target.checked })}
            data-testid="bulk-replace"
          />
          <div className="bulk-concurrency" role="radiogroup" aria-label="Calls in flight">
            <span className="radio-label">Calls in flight</span>
            <div className="radio-row">
              {([1, 4, 10] as const).map((n) => (
                <ChoiceOption key={n} type="radio" name="bulk-concurrency" label={String(n)} checked={options.concurrency === n} onChange={() => onOptions({ ...options, concurrency: n })} />
              ))}
            </div>
          </div>
        </div>
      </fieldset>
    </div>
  );
}
