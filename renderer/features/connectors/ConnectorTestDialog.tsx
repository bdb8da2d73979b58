/** The checks `connectors.test` ran (token, permissions, region, first page), each with its hint. */
import { CircleCheck, CircleX } from 'lucide-react';
import type { ConnectorTestResult } from '../../../shared/contract';
import { Dialog } from '../../components/Dialog';
import { Loading } from '../../components/QueryState';

export function ConnectorTestDialog({ name, result, pending, failed, onClose }: { name: string; result: ConnectorTestResult | undefined; pending: boolean; failed: boolean; onClose(): void }) {
  const failures = result?.checks.filter((c) => !c.ok).length ?? 0;
  return (
    <Dialog
      title={`Test ${name}`}
      description="Credentials, permissions and region are checked without polling."
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
            {result.ok ? 'All checks passed.' : `${failures} of ${result.checks.length} checks failed.`}
          </p>
          <ul className="check-list" aria-label="Checks">
            {result.checks.map((c) => (
              <li key={c.name} className={c.ok ? 'check check-ok' : 'check check-fail'} data-testid={`check-${c.name}`}>
                {c.ok ? <CircleCheck size={16} aria-label="passed" /> : <CircleX size={16} aria-label="failed" />}
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
