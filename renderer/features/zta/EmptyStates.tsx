/**
 * What the ZTA page says before there is anything to show, and what to do: no connector (add one,
 * or open the demo workspace), or connectors that never completed a cycle (each with its state
 * and Poll now; scores appear when a cycle completes).
 */
import { Link } from '@tanstack/react-router';
import { Plug, RefreshCw, Rocket, ShieldCheck } from 'lucide-react';
import type { ZtaConnector } from '../../../shared/model/zta';
import { usePollConnectorNow, useConnectors } from '../../api/connectors';
import { Spinner } from '../../components/Spinner';
import { useOpenDemoAction } from '../../app/WelcomePanel';
import { ConnectorStrip } from './ConnectorStrip';

export function NoConnectors() {
  const demo = useOpenDemoAction();
  return (
    <div className="empty zta-empty" data-testid="zta-empty">
      <ShieldCheck size={24} aria-hidden="true" />
      <p>
        <strong>No EDR connector yet.</strong>
      </p>
      <p className="muted">The dashboard shows the risk of every host your Falcon and Defender tenants report. Add a connector, or open the demo workspace: it brings a simulated tenant of each.</p>
      <div className="toolbar-actions">
        <Link to="/connectors" className="button button-primary">
          <Plug size={14} aria-hidden="true" />
          Add a connector
        </Link>
        <button type="button" className="button" onClick={() => void demo.open()} disabled={demo.pending}>
          {demo.pending ? <Spinner /> : <Rocket size={14} aria-hidden="true" />}
          Open demo workspace
        </button>
      </div>
    </div>
  );
}

export function NeverScored({ connectors }: { connectors: readonly ZtaConnector[] }) {
  const live = useConnectors().data;
  const poll = usePollConnectorNow();
  const enabled = connectors.filter((c) => live?.find((l) => l.id === c.connectorId)?.enabled !== false);
  return (
    <div className="zta-never" data-testid="zta-never">
      <div className="empty zta-empty">
        <ShieldCheck size={24} aria-hidden="true" />
        <p>
          <strong>No connector has completed a cycle yet.</strong>
        </p>
        <p className="muted">Scores show here as soon as a cycle completes. Start one now, or see each connector’s schedule on the Connectors page.</p>
        <div className="toolbar-actions">
          {enabled.map((c) => (
            <button key={c.connectorId} type="button" className="button" onClick={() => poll.mutate({ connectorId: c.connectorId })} disabled={poll.isPending || live?.find((l) => l.id === c.connectorId)?.running}>
              <RefreshCw size={14} aria-hidden="true" />
              Poll {c.name} now
            </button>
          ))}
          <Link to="/connectors" className="button button-ghost">
            <Plug size={14} aria-hidden="true" />
            Connectors
          </Link>
        </div>
      </div>
      <ConnectorStrip connectors={connectors} live={live} />
    </div>
  );
}
