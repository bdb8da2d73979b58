/**
 * The chosen connection's devices by deployment status (failed first), as of the list's fetch, each
 * status opening the devices page filtered to it, and the devices whose deployment failed.
 */
import { Link } from '@tanstack/react-router';
import { RefreshCw, Router } from 'lucide-react';
import type { DeploymentStatus } from '../../../shared/model/inventory';
import { DEPLOYMENT_ORDER, type OverviewConnection, type OverviewDevices } from '../../../shared/model/overview';
import { RelativeTime } from '../../components/Time';
import { useNow } from '../../components/useNow';
import { agoText, formatCount } from '../../components/format';
import { Spinner } from '../../components/Spinner';
import { useInventoryProgress } from '../../api/inventory';
import { useFetchOnFirstVisit } from '../../components/Freshness';
import { SetupActions } from './SetupActions';
import { AsOf } from '../../components/AsOf';
import { Tile, TileEmpty } from './Tile';

const STATUS_LABEL: Record<DeploymentStatus, string> = { failed: 'Deployment failed', deploying: 'Deploying', saved: 'Saved, not deployed', deployed: 'Deployed' };

export function DevicesTile({ devices, connection }: { devices: OverviewDevices; connection: OverviewConnection | null }) {
  const now = useNow();
  const link = (
    <Link to="/devices" className="ov-tile-link">
      Devices
    </Link>
  );
  if (devices.state === 'no-connection' || !connection) {
    return (
      <Tile id="devices" title="Devices" icon={Router} link={link} footer={<span className="muted">No connection</span>}>
        <TileEmpty actions={<SetupActions what="connection" />}>Devices are a node’s: add a management node, or open the demo workspace.</TileEmpty>
      </Tile>
    );
  }
  if (devices.state === 'never') {
    return (
      <Tile id="devices" title="Devices" icon={Router} link={link} footer={<span className="muted">Never fetched</span>}>
        <NeverFetched connection={connection} />
      </Tile>
    );
  }
  return (
    <Tile id="devices" title="Devices" icon={Router} link={link} footer={<AsOf className="ov-asof" testId="tile-asof" iso={devices.asOf} prefix="fetched" />}>
      <p className="ov-bignums">
        <Link to="/devices" className="ov-bignum" data-testid="devices-total" title="Open every device">
          <strong>{formatCount(devices.total)}</strong> devices
        </Link>
      </p>
      <ul className="ov-status-list" aria-label="Devices by deployment status">
        {DEPLOYMENT_ORDER.map((s) => (
          <li key={s} className={`ov-status ov-status-${s}`}>
            <span className="ov-dot" aria-hidden="true" />
            <span>{STATUS_LABEL[s]}</span>
            <Link to="/devices" search={{ status: s }} className="ov-count" data-testid={`devices-${s}`} title={`Open the devices: ${STATUS_LABEL[s].toLowerCase()}`}>
              {formatCount(devices.byStatus[s])}
            </Link>
          </li>
        ))}
      </ul>
      {devices.failed.length > 0 ? (
        <div className="ov-failed">
          <h4>Failed deployments</h4>
          <ul className="ov-list" aria-label="Failed deployments">
            {devices.failed.map((f) => (
              <li key={f.deviceName}>
                <Link to="/devices" search={{ status: 'failed', device: f.deviceName }} data-testid="devices-failed-device" title={f.message ?? `Open ${f.deviceName}`}>
                  {f.deviceName}
                </Link>
                <span className="muted ov-failed-meta">
                  {f.orgName ?? ''}
                  {f.at ? (
                    <>
                      {f.orgName ? ' · ' : ''}
                      <RelativeTime iso={f.at}>{agoText(f.at, now)}</RelativeTime>
                    </>
                  ) : null}
                </span>
              </li>
            ))}
            {devices.byStatus.failed > devices.failed.length ? <li className="muted">and {formatCount(devices.byStatus.failed - devices.failed.length)} more</li> : null}
          </ul>
        </div>
      ) : null}
    </Tile>
  );
}

/** A list never fetched is fetched once when a signed-in connection first shows it (C-11), with its progress. */
function NeverFetched({ connection }: { connection: OverviewConnection }) {
  const refresh = useFetchOnFirstVisit(connection.profileId, 'devices', connection.signedIn, null);
  const progress = useInventoryProgress(connection.profileId)?.devices;
  if (refresh.isPending) {
    return (
      <TileEmpty>
        <Spinner /> Fetching the devices of {connection.name}
        {progress ? ` (${progress.total === null ? formatCount(progress.done) : `${formatCount(progress.done)} of ${formatCount(progress.total)}`})` : ''}…
      </TileEmpty>
    );
  }
  return (
    <TileEmpty
      actions={
        connection.signedIn ? (
          <button type="button" className="button button-small" onClick={() => refresh.mutate({ profileId: connection.profileId, what: 'devices' })}>
            <RefreshCw size={14} aria-hidden="true" />
            Fetch the devices
          </button>
        ) : (
          <Link to="/connections" className="button button-small">
            Connections
          </Link>
        )
      }
    >
      The devices of {connection.name} were never fetched{connection.signedIn ? '' : `: sign in to ${connection.name} to fetch them`}. They are then kept for offline use.
    </TileEmpty>
  );
}
