/** The checks `connectors.test` ran (the token, each permission, each API the poll reads), each with its hint; those that could not run, as such. */
import { CircleCheck, CircleDashed, CircleX } from 'lucide-react';
import type { ConnectorTestResult } from '../../../shared/contract';
import { Dialog } from '../../components/Dialog';
import { Loading } from '../../components/QueryState';

export function ConnectorTestDialog({ name, result, pending, failed, onClose }: { name: string; result: ConnectorTestResult | undefined; pending: boolean; failed: boolean; onClose(): void }) {
  const failures = result?.checks.filter((c) => !c.ok && c.ran !== false).length ?? 0;
  const notRun = result?.checks.filter((c) => c.ran === false).length ?? 0;
  const ran = (result?.checks.length ?? 0) - notRun;
  return (
    <Dialog
      title={`Test ${name}`}
      description="The token, the permissions and each API the poll reads are called once, without polling."
      onClose={onClose}
      testId="connector-test-dialog"
      footer={
        <button type="button" className="button button-primary" onClick={onClose} data-autofocus>
          Close
        </button>
      }
    >
      {pending ? (
        <Loading status>Checking the tenant…</Loading>
      ) : failed || !result ? (
        <p className="connector-error">The test could not run. The message says why.</p>
      ) : (
        <>
          <p className={result.ok ? 'callout callout-info' : 'callout callout-error'} role="status">
            {result.ok ? 'All checks passed.' : `${failures} of ${ran} checks failed${notRun ? `; ${notRun} not run` : ''}.`}
          </p>
          <ul className="check-list" aria-label="Checks">
            {result.checks.map((c) => (
              <li key={c.name} className={c.ok ? 'check check-ok' : c.ran === false ? 'check check-skipped' : 'check check-fail'} data-testid={`check-${c.name}`} data-state={c.ok ? 'passed' : c.ran === false ? 'not-run' : 'failed'}>
                {c.ok ? <CircleCheck size={16} aria-label="passed" /> : c.ran === false ? <CircleDashed size={16} aria-label="not run" /> : <CircleX size={16} aria-label="failed" />}
                <div>
                  <strong>{c.name}</strong>
                  <span className="check-message">{c.message}</span>
                  {c.hint ? <span className="check-hint">{c.hint}</span> : null}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </Dialog>
  );
}
