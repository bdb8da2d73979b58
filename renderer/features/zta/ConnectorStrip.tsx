/**
 * Where each tenant's data stands (EDR-Z6): its hosts and "as of" (when its newest completed cycle
 * finished, and how old that is), a rescored cycle marked, a running poll, a vendor that could not
 * be reached ("offline, last good data as of …": not a failure, the stored scores stand) and a
 * cycle that failed for another reason (its error). The running state is live (`edr.progress`
 * keeps the connectors list current); the rest is the snapshot's.
 */
import clsx from 'clsx';
import { CloudOff, TriangleAlert } from 'lucide-react';
import type { ConnectorStatus } from '../../../shared/contract';
import type { ZtaConnector } from '../../../shared/model/zta';
import { formatCount } from '../../components/format';
import { AsOf } from '../../components/AsOf';
import { vendorShort } from '../../components/zta-labels';

export function ConnectorStrip({ connectors, live }: { connectors: readonly ZtaConnector[]; live: readonly ConnectorStatus[] | undefined }) {
  return (
    <ul className="zta-connectors" aria-label="Connectors and how current their data is">
      {connectors.map((c) => (
        <ConnectorState key={c.connectorId} connector={c} running={live?.find((l) => l.id === c.connectorId)?.running ?? c.health === 'running'} />
      ))}
    </ul>
  );
}

function ConnectorState({ connector: c, running }: { connector: ZtaConnector; running: boolean }) {
  const tone = c.health === 'failing' ? 'danger' : c.health === 'offline' ? 'warn' : c.health === 'never' ? 'muted' : 'ok';
  return (
    <li className={clsx('zta-connector', `zta-connector-${tone}`)} data-testid={`zta-connector-${c.name}`} data-health={c.health}>
      <span className="zta-connector-name">
        <strong>{c.name}</strong> <span className="muted">{vendorShort[c.vendor]}</span>
        {c.cycleId !== null ? <span className="muted"> · {formatCount(c.hosts)} hosts</span> : null}
        {c.kind === 'rescore' ? (
          <span className="chip chip-accent" title="The newest cycle scored the stored hosts again under changed risk settings">
            rescored
          </span>
        ) : null}
        {running ? <span className="chip chip-accent">polling now…</span> : null}
      </span>
      {c.health === 'never' ? (
        <span className="muted">No completed cycle yet.</span>
      ) : c.health === 'offline' ? (
        <span className="zta-connector-line" title={c.lastError ?? undefined}>
          <CloudOff size={13} aria-hidden="true" />
          <span>
            offline, last good data <AsOf iso={c.asOf} />
          </span>
        </span>
      ) : (
        <AsOf iso={c.asOf} testId="zta-connector-asof" />
      )}
      {c.health === 'failing' ? (
        <span className="zta-connector-line zta-connector-error" role="status">
          <TriangleAlert size={13} aria-hidden="true" />
          <span>Last cycle failed: {c.lastError ?? 'no reason given'}</span>
        </span>
      ) : null}
    </li>
  );
}
