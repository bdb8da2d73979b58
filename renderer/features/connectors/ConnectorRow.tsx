import { Activity, Pencil, Play, Square, Trash2 } from 'lucide-react';
import { useId, useState } from 'react';
import type { ConnectorStatus } from '../../../shared/contract';
import { notAssessedOf } from '../../../shared/model/connector';
import { useCancelConnectorPoll, usePollConnectorNow, useSetConnectorEnabled, useTestConnector } from '../../api/connectors';
import { RowMenu } from '../../components/RowMenu';
import { Spinner } from '../../components/Spinner';
import { ConnectorTestDialog } from './ConnectorTestDialog';
import { CycleStatus } from './CycleStatus';
import { FleetClaim } from './FleetClaim';
import { NOT_ASSESSED_CHOICES, pollEvery, regionLabel, vendorLabel } from '../../components/connector-labels';

export interface RowActions {
  edit(connector: ConnectorStatus): void;
  remove(connector: ConnectorStatus): void;
}

/**
 * `team`: the console is joined to a team (issue 25.1): the workers poll, so no Poll now, Cancel or
 * Test; `readOnly` (a northbound_console role) says why the switch, Edit and Delete are not offered.
 */
export function ConnectorRow({ connector, actions, team }: { connector: ConnectorStatus; actions: RowActions; team?: { readOnly: string | null } | undefined }) {
  const setEnabled = useSetConnectorEnabled();
  const pollNow = usePollConnectorNow();
  const cancel = useCancelConnectorPoll();
  const test = useTestConnector();
  const [testOpen, setTestOpen] = useState(false);
  const switchId = useId();
  const ref = { connectorId: connector.id };
  const enabled = setEnabled.isPending && setEnabled.variables ? setEnabled.variables.enabled : connector.enabled;

  const runTest = () => {
    setTestOpen(true);
    test.mutate(ref);
  };

  return (
    <li className="connector-row" data-testid={`connector-row-${connector.name}`} data-connector-id={connector.id}>
      <div className="connector-main">
        <span className="connector-name">
          <span className="connector-title">{connector.name}</span>
          <span className={`chip vendor-${connector.vendor}`}>{vendorLabel[connector.vendor]}</span>
          {connector.source === 'bulk' ? <span className="chip" title="Pushed by the bulk configuration">bulk</span> : null}
        </span>
        <span className="connector-tenant" title="Tenant">
          {connector.tenantId}
        </span>
        <span className="connector-facts">
          {connector.vendor === 'falcon' && connector.cloudRegion ? <span>Region {regionLabel[connector.cloudRegion]}</span> : null}
          <span>Polls {pollEvery(connector.pollIntervalMinutes)}</span>
          <span data-testid="connector-not-assessed" title={NOT_ASSESSED_CHOICES[notAssessedOf(connector)].hint}>
            Not assessed: {NOT_ASSESSED_CHOICES[notAssessedOf(connector)].short}
          </span>
          {!connector.hasClientSecret ? <span className="chip chip-warn">no secret</span> : null}
        </span>
      </div>
      <div className="connector-switch field-inline">
        <input
          id={switchId}
          type="checkbox"
          role="switch"
          className="switch"
          checked={enabled}
          disabled={setEnabled.isPending || Boolean(team?.readOnly)}
          title={team?.readOnly ?? undefined}
          onChange={(e) => setEnabled.mutate({ connectorId: connector.id, enabled: e.target.checked })}
        />
        <label htmlFor={switchId}>Enabled</label>
      </div>
      <div className="connector-status">{team ? <FleetClaim fleet={connector.fleet} /> : <CycleStatus connector={connector} />}</div>
      {team ? (
        <div className="connector-actions">
          {team.readOnly ? null : (
            <RowMenu
              items={[
                { label: 'Edit', icon: Pencil, onSelect: () => actions.edit(connector) },
                { label: 'Delete', icon: Trash2, danger: true, onSelect: () => actions.remove(connector) },
              ]}
            />
          )}
        </div>
      ) : (
        <div className="connector-actions">
          {connector.running ? (
            <button type="button" className="button button-small" disabled={cancel.isPending} onClick={() => cancel.mutate(ref)}>
              {cancel.isPending ? <Spinner /> : <Square size={14} aria-hidden="true" />}
              Cancel poll
            </button>
          ) : (
            <button type="button" className="button button-small button-primary" disabled={pollNow.isPending} onClick={() => pollNow.mutate(ref)}>
              {pollNow.isPending ? <Spinner /> : <Play size={14} aria-hidden="true" />}
              Poll now
            </button>
          )}
          <RowMenu
            items={[
              { label: 'Test', icon: Activity, disabled: test.isPending, onSelect: runTest },
              { label: 'Edit', icon: Pencil, onSelect: () => actions.edit(connector) },
              { label: 'Delete', icon: Trash2, danger: true, onSelect: () => actions.remove(connector) },
            ]}
          />
        </div>
      )}
      {testOpen ? <ConnectorTestDialog name={connector.name} result={test.data} pending={test.isPending} failed={test.isError} onClose={() => setTestOpen(false)} /> : null}
    </li>
  );
}
