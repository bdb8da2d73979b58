/** EDR connectors: each tenant's schedule, its running or last cycle, and the actions on it. */
import { FileUp, Plug, Plus } from 'lucide-react';
import { useMemo, useState } from 'react';
import { useConnectors } from '../../api/connectors';
import { useTeam } from '../../api/team';
import { LoadFailed, Loading } from '../../components/QueryState';
import { ConnectorFormDialog } from './ConnectorFormDialog';
import { ConnectorRow, type RowActions } from './ConnectorRow';
import { DeleteConnectorDialog } from './DeleteConnectorDialog';
import { ImportConnectorsDialog } from './ImportConnectorsDialog';

type PageDialog = { kind: 'form'; connectorId?: string } | { kind: 'delete'; connectorId: string } | { kind: 'import'; connectorId?: undefined };

export function ConnectorsPage() {
  const connectors = useConnectors();
  const teamView = useTeam().data;
  // Joined to a team (issue 25.1): the team's connectors, polled by its workers; a console role reads them only.
  const team = teamView?.joined ? { readOnly: teamView.readOnlyReason } : undefined;
  const [dialog, setDialog] = useState<PageDialog | undefined>();
  const actions = useMemo<RowActions>(() => ({ edit: (c) => setDialog({ kind: 'form', connectorId: c.id }), remove: (c) => setDialog({ kind: 'delete', connectorId: c.id }) }), []);
  const close = () => setDialog(undefined);
  const list = connectors.data ?? [];
  const target = dialog?.connectorId ? list.find((c) => c.id === dialog.connectorId) : undefined;

  let body;
  if (connectors.isPending) {
    body = (
      <Loading>Loading connectors…</Loading>
    );
  } else if (connectors.isError) {
    body = (
      <LoadFailed onRetry={() => void connectors.refetch()}>The connectors could not be loaded.</LoadFailed>
    );
  } else if (list.length === 0 && !team) {
    body = <EmptyConnectors onAdd={() => setDialog({ kind: 'form' })} onImport={() => setDialog({ kind: 'import' })} />;
  } else {
    body = (
      <section aria-labelledby="connectors-title">
        <div className="toolbar">
          <h2 id="connectors-title">
            EDR connectors <span className="count">{list.length}</span>
          </h2>
          {team?.readOnly ? null : (
            <div className="toolbar-actions">
              <button type="button" className="button" onClick={() => setDialog({ kind: 'import' })}>
                <FileUp size={14} aria-hidden="true" />
                Import…
              </button>
              <button type="button" className="button button-primary" onClick={() => setDialog({ kind: 'form' })}>
                <Plus size={14} aria-hidden="true" />
                Add connector
              </button>
            </div>
          )}
        </div>
        {team ? (
          <p className="callout" role="status" data-testid="connectors-team">
            <strong>The team’s connectors, polled by its workers.</strong>
            <span>{team.readOnly ?? 'Your database role northbound_admin registers and changes them; each client secret is sealed to the workers.'}</span>
          </p>
        ) : null}
        <ul className="connector-list" aria-label="EDR connectors">
          {list.map((c) => (
            <ConnectorRow key={c.id} connector={c} actions={actions} team={team} />
          ))}
        </ul>
      </section>
    );
  }

  return (
    <div className="page">
      {body}
      {dialog?.kind === 'form' && (!dialog.connectorId || target) ? <ConnectorFormDialog connector={target} onClose={close} /> : null}
      {dialog?.kind === 'delete' && target ? <DeleteConnectorDialog connector={target} onClose={close} /> : null}
      {dialog?.kind === 'import' ? <ImportConnectorsDialog onClose={close} /> : null}
    </div>
  );
}

function EmptyConnectors({ onAdd, onImport }: { onAdd(): void; onImport(): void }) {
  return (
    <section className="welcome" aria-labelledby="connectors-empty-title" data-testid="connectors-empty">
      <div className="welcome-icon" aria-hidden="true">
        <Plug size={28} />
      </div>
      <h2 id="connectors-empty-title">No EDR connectors yet</h2>
      <p>
        A connector polls one CrowdStrike Falcon or Microsoft Defender for Endpoint tenant on a schedule, scores the risk of each host and publishes the scores to the
        management node for zero-trust access. Its client secret is kept in the vault.
      </p>
      <div className="welcome-actions">
        <button type="button" className="button button-primary button-large" onClick={onAdd}>
          <Plus size={16} aria-hidden="true" />
          Add connector
        </button>
        <button type="button" className="button button-large" onClick={onImport}>
          <FileUp size={16} aria-hidden="true" />
          Import connectors…
        </button>
      </div>
    </section>
  );
}
