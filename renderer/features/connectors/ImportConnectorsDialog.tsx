/**
 * The bulk push of spec 4: one document registering the connectors of every tenant, fetched from
 * a signed-in management node (`GET /mgmt/edr/connectors`) or read from a JSON file the operator
 * picks. Every entry is validated and registered on its own; the result lists each one by its
 * position in the document, with the fields to fix when it was refused.
 */
import { CircleCheck, CircleX, FileJson, Upload } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import type { ResponseOf } from '../../../shared/contract';
import { AppError } from '../../../shared/model/errors';
import { issueText } from '../../../shared/validation/error-map';
import { useImportConnectors } from '../../api/connectors';
import { useProfiles, useSessions } from '../../api/connections';
import { Dialog } from '../../components/Dialog';
import { ChoiceOption, SelectField } from '../../components/Field';
import { Spinner } from '../../components/Spinner';
import { formatBytes } from '../../components/format';
import { vendorLabel } from '../../components/connector-labels';

type Results = ResponseOf<'connectors.importBulk'>;
type Source = 'node' | 'document';
const MAX_BYTES = 16 * 1024 * 1024;

export function ImportConnectorsDialog({ onClose }: { onClose(): void }) {
  const profiles = useProfiles();
  const sessions = useSessions();
  const importBulk = useImportConnectors();
  const signedIn = useMemo(() => {
    const live = new Set((sessions.data ?? []).filter((s) => s.state === 'signed-in').map((s) => s.profileId));
    return (profiles.data ?? []).filter((p) => live.has(p.id));
  }, [profiles.data, sessions.data]);
  const [source, setSource] = useState<Source>(signedIn.length > 0 ? 'node' : 'document');
  const [profileId, setProfileId] = useState<string>('');
  const [file, setFile] = useState<File | undefined>();
  const [fileError, setFileError] = useState<string | undefined>();
  const [results, setResults] = useState<Results | undefined>();
  const [failure, setFailure] = useState<AppError | undefined>();
  const fileId = useId();
  const chosenProfile = profileId || signedIn[0]?.id || '';

  const pickFile = (f: File | undefined) => {
    setFile(f);
    setFileError(f && f.size > MAX_BYTES ? 'The file is larger than 16 MiB; split it into several documents.' : f && f.size === 0 ? 'The file is empty.' : undefined);
  };

  const canImport = !importBulk.isPending && (source === 'node' ? chosenProfile !== '' : file !== undefined && fileError === undefined);

  const run = async () => {
    setFailure(undefined);
    setResults(undefined);
    try {
      const request = source === 'node' ? { source: 'node' as const, profileId: chosenProfile } : { source: 'document' as const, name: file!.name, text: await file!.text() };
      setResults(await importBulk.mutateAsync(request));
    } catch (e) {
      setFailure(e instanceof AppError ? e : new AppError('internal', e instanceof Error ? e.message : String(e), 'Try again.'));
    }
  };

  const reset = () => {
    setResults(undefined);
    setFailure(undefined);
  };

  return (
    <Dialog
      title="Import connectors"
      description="The bulk push: one document with the connectors of all tenants. Each entry is checked on its own; a tenant already registered is updated."
      onClose={onClose}
      size="lg"
      testId="import-connectors-dialog"
      footer={
        results ? (
          <>
            <button type="button" className="button" onClick={reset}>
              Import another
            </button>
            <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
              Done
            </button>
          </>
        ) : (
          <>
            <button type="button" className="button" onClick={onClose}>
              Cancel
            </button>
            <button type="button" className="button button-primary" disabled={!canImport} onClick={() => void run()}>
              {importBulk.isPending ? <Spinner /> : <Upload size={14} aria-hidden="true" />}
              Import
            </button>
          </>
        )
      }
    >
      {results ? (
        <ImportResults results={results} />
      ) : (
        <div className="form">
          <fieldset className="radio-group">
            <legend>Source</legend>
            <ChoiceOption
              type="radio"
              name="import-source"
              value="node"
              label="Management node"
              hint={signedIn.length > 0 ? 'The document the node serves for all its tenants.' : 'Sign in to a management node first.'}
              checked={source === 'node'}
              disabled={signedIn.length === 0}
              onChange={() => setSource('node')}
            />
            {source === 'node' && signedIn.length > 0 ? (
              <SelectField label="Node" value={chosenProfile} onChange={(e) => setProfileId(e.target.value)} className="import-indent">
                {signedIn.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.name} ({p.host})
                  </option>
                ))}
              </SelectField>
            ) : null}
            <ChoiceOption type="radio" name="import-source" value="document" label="JSON file" hint='{"version": 1, "connectors": [ … ]}, as exported from the node.' checked={source === 'document'} onChange={() => setSource('document')} />
            {source === 'document' ? (
              <div className="field import-indent">
                <label htmlFor={fileId}>Connector document</label>
                <input id={fileId} type="file" accept=".json,application/json" aria-invalid={fileError ? true : undefined} onChange={(e) => pickFile(e.target.files?.[0])} />
                {file ? (
                  <span className="field-hint">
                    <FileJson size={12} aria-hidden="true" /> {file.name}, {formatBytes(file.size)}
                  </span>
                ) : null}
                {fileError ? (
                  <span className="field-error" role="alert">
                    {fileError}
                  </span>
                ) : null}
              </div>
            ) : null}
          </fieldset>
          {failure ? (
            <div className="callout callout-error" role="alert" data-testid="import-failure">
              <strong>{failure.message}</strong>
              {failure.hint ? <span>{failure.hint}</span> : null}
              <IssueList issues={issuesOf(failure)} />
            </div>
          ) : null}
        </div>
      )}
    </Dialog>
  );
}

function ImportResults({ results }: { results: Results }) {
  const created = results.filter((r) => r.action === 'created').length;
  const updated = results.filter((r) => r.action === 'updated').length;
  const refused = results.filter((r) => !r.ok).length;
  return (
    <>
      <p className={refused ? 'callout callout-warn' : 'callout callout-info'} role="status" data-testid="import-summary">
        {results.length} {results.length === 1 ? 'entry' : 'entries'}: {created} created, {updated} updated, {refused} refused.
        {refused ? ' Fix the refused entries in the document and import it again; the others are registered.' : ''}
      </p>
      <div className="table-wrap">
        <table className="table" aria-label="Import results">
          <thead>
            <tr>
              <th className="nowrap">Entry</th>
              <th>Vendor</th>
              <th>Tenant</th>
              <th>Result</th>
            </tr>
          </thead>
          <tbody>
            {results.map((r) => (
              <tr key={r.index} data-testid={`import-result-${r.index + 1}`}>
                <td>
                  <span className="nowrap mono">#{r.index + 1}</span>
                  {r.name ? <span className="import-entry-name">{r.name}</span> : null}
                </td>
                <td className="nowrap">{r.vendor === 'falcon' || r.vendor === 'defender' ? vendorLabel[r.vendor] : (r.vendor ?? '—')}</td>
                <td className="mono">{r.tenantId ?? '—'}</td>
                <td>
                  {r.ok ? (
                    <span className="import-ok">
                      <CircleCheck size={14} aria-hidden="true" /> {r.action}
                    </span>
                  ) : (
                    <div className="import-refused">
                      <span>
                        <CircleX size={14} aria-hidden="true" /> refused
                      </span>
                      {r.error?.issues.length ? <IssueList issues={r.error.issues} /> : <span className="field-error">{r.error?.message}</span>}
                    </div>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}

type Issue = { path: string; message: string };

/** `details.issues` of a refused document (a request check names its fields). */
function issuesOf(error: AppError): Issue[] {
  const issues = error.details?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.filter((i): i is Issue => typeof (i as Issue | null)?.path === 'string' && typeof (i as Issue).message === 'string');
}

/**
 * Each problem as a sentence naming its field in words (C-23), with the field's key in the
 * document beside it, so the operator finds it in the JSON.
 */
function IssueList({ issues }: { issues: readonly Issue[] }) {
  if (!issues.length) return null;
  return (
    <ul className="import-issues">
      {issues.map((i) => (
        <li key={`${i.path}:${i.message}`}>
          {issueText(i)}
          {i.path ? (
            <>
              {' '}
              <code title="The field in the document">{i.path}</code>
            </>
          ) : null}
        </li>
      ))}
    </ul>
  );
}
