/**
 * Each EDR connector's health: the data it shows and how old (offline or failing said so, with
 * why), a poll running now, the next one, and whether the newest cycle was published (or why not).
 * The running state is live (`edr.progress` keeps the connectors list current); the rest is main's
 * answer.
 */
import { Link } from '@tanstack/react-router';
import clsx from 'clsx';
import { Plug } from 'lucide-react';
import type { ConnectorStatus } from '../../../shared/contract';
import type { OverviewConnector } from '../../../shared/model/overview';
import { useConnectors } from '../../api/connectors';
import { agoText, formatCount } from '../../components/format';
import { RelativeTime } from '../../components/Time';
import { useNow } from '../../components/useNow';
import { inText } from '../../components/connector-labels';
import { vendorShort } from '../../components/zta-labels';
import { SetupActions } from './SetupActions';
import { AsOf } from '../../components/AsOf';
import { Tile, TileEmpty } from './Tile';

const HEALTH: Record<OverviewConnector['health'], { label: string; chip: string }> = {
  online: { label: 'online', chip: 'chip-ok' },
  running: { label: 'polling now', chip: 'chip-accent' },
  offline: { label: 'offline', chip: 'chip-warn' },
  failing: { label: 'failing', chip: 'chip-danger' },
  never: { label: 'no cycle yet', chip: '' },
};

export function ConnectorsTile({ connectors, generatedAt }: { connectors: readonly OverviewConnector[]; generatedAt: string }) {
  const live = useConnectors().data;
  const link = (
    <Link to="/connectors" className="ov-tile-link">
      Connectors
    </Link>
  );
  if (connectors.length === 0) {
    return (
      <Tile id="connectors" title="Connector health" icon={Plug} link={link} footer={<span className="muted">No connector</span>}>
        <TileEmpty actions={<SetupActions what="connector" />}>No EDR connector yet.</TileEmpty>
      </Tile>
    );
  }
  return (
    <Tile id="connectors" title="Connector health" icon={Plug} link={link} footer={<AsOf className="ov-asof" testId="tile-asof" iso={generatedAt} prefix="checked" />}>
      <ul className="ov-connectors" aria-label="Connectors">
        {connectors.map((c) => (
          <ConnectorHealth key={c.connectorId} c={c} live={live?.find((l) => l.id === c.connectorId)} />
        ))}
      </ul>
    </Tile>
  );
}

function ConnectorHealth({ c, live }: { c: OverviewConnector; live: ConnectorStatus | undefined }) {
  const now = useNow();
  const running = live?.running ?? c.running;
  const next = live ? (live.nextCycleAt ?? null) : c.nextCycleAt;
  const health = HEALTH[running ? 'running' : c.health === 'running' ? 'online' : c.health];
  return (
    <li className="ov-connector" data-testid={`connector-health-${c.name}`} data-health={running ? 'running' : c.health}>
      <div className="ov-connector-head">
        <strong>{c.name}</strong> <span className="muted">{vendorShort[c.vendor]}</span>
        <span className={clsx('chip', health.chip)}>{health.label}</span>
      </div>
      <div className="ov-connector-line">
        {c.asOf ? (
          <span>
            {formatCount(c.hosts ?? 0)} hosts as of{' '}
            <RelativeTime iso={c.asOf} describe={(t) => `The newest completed cycle finished at ${t}`} testId="connector-asof">
              {agoText(c.asOf, now)}
            </RelativeTime>
          </span>
        ) : (
          <span className="muted">No completed cycle yet</span>
        )}
        {c.publication.state === 'published' ? (
          <RelativeTime iso={c.publication.at} className="chip chip-ok" describe={(t) => `Published at ${t}`}>
            published
          </RelativeTime>
        ) : c.publication.state === 'waiting' ? (
          <span className="chip" title={c.publication.reason ?? 'Published about a minute after the cycle, once a target is signed in or set'}>
            not published
          </span>
        ) : null}
      </div>
      {(c.health === 'offline' || c.health === 'failing') && c.lastError ? (
        <div className={clsx('ov-connector-line', c.health === 'failing' ? 'ov-error' : 'ov-warn')}>
          {/* One flex item: the sentence wraps as text, not in pieces. */}
          <span>
            Last cycle {c.health === 'offline' ? 'could not reach the vendor' : 'failed'}
            {c.lastAttemptAt ? (
              <>
                {' '}
                <RelativeTime iso={c.lastAttemptAt}>{agoText(c.lastAttemptAt, now)}</RelativeTime>
              </>
            ) : null}
            : {c.lastError}
          </span>
        </div>
      ) : null}
      {c.publication.state === 'waiting' && c.publication.reason ? <div className="ov-connector-line ov-warn">Not published: {c.publication.reason}</div> : null}
      <div className="ov-connector-line muted">
        {!c.enabled ? (
          'Disabled: no scheduled polls'
        ) : running ? (
          'Polling now'
        ) : next ? (
          <RelativeTime iso={next} describe={(t) => `Next poll at ${t}`}>
            Next poll {inText(next, now)}
          </RelativeTime>
        ) : (
          'No poll scheduled'
        )}
      </div>
    </li>
  );
}
