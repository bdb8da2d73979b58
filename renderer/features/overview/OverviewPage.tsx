/**
 * The Overview (issue 13; Ctrl+1, the page a window opens on once anything is configured): "is
 * anything on fire, and where?" at a glance, online or offline. One answer from main (overview.get,
 * SQL aggregates over its stores) for the chosen connection: its active alarms by severity, the
 * risk bands of every connector with their trend, the hosts that entered High Risk, its devices by
 * deployment status, and each connector's health. Each tile says what its numbers are as of and
 * links to its page with the matching filter in the address (Back returns here).
 */
import { LayoutDashboard } from 'lucide-react';
import { useOverview } from '../../api/overview';
import { useProfiles, useSessions } from '../../api/connections';
import { useActiveProfile } from '../../app/useActiveProfile';
import { LoadFailed, Loading } from '../../components/QueryState';
import { AlarmsTile } from './AlarmsTile';
import { ConnectorsTile } from './ConnectorsTile';
import { FleetTile } from './FleetTile';
import { useTeam } from '../../api/team';
import { DevicesTile } from './DevicesTile';
import { HighRiskTile } from './HighRiskTile';
import { RiskTile } from './RiskTile';
import { SetupActions } from './SetupActions';

export function OverviewPage() {
  const profiles = useProfiles();
  const sessions = useSessions();
  const profile = useActiveProfile(profiles.data, sessions.data);
  const overview = useOverview(profile?.id, profiles.data !== undefined);
  const joined = useTeam().data?.joined === true;

  let body;
  if (overview.isPending) {
    body = (
      <Loading>Reading the stored alarms, scores and devices…</Loading>
    );
  } else if (overview.isError) {
    body = (
      <LoadFailed onRetry={() => void overview.refetch()}>The overview could not be read.</LoadFailed>
    );
  } else {
    const o = overview.data;
    body =
      o.setup.connections === 0 && o.setup.connectors === 0 ? (
        <div className="empty ov-nothing" data-testid="overview-nothing">
          <LayoutDashboard size={24} aria-hidden="true" />
          <p>
            <strong>Nothing to look over yet.</strong>
          </p>
          <p className="muted">The overview counts a management node’s alarms and devices and your EDR tenants’ risk scores. Add a connection or a connector, or open the demo workspace to see it at work.</p>
          <div className="toolbar-actions">
            <SetupActions what="connection" demo={false} />
            <SetupActions what="connector" />
          </div>
        </div>
      ) : (
        <div className="ov-grid" data-stale={overview.isPlaceholderData || undefined}>
          <AlarmsTile alarms={o.alarms} connection={o.connection} />
          <RiskTile risk={o.risk} />
          <HighRiskTile risk={o.risk} />
          <DevicesTile devices={o.devices} connection={o.connection} />
          <ConnectorsTile connectors={o.connectors} generatedAt={o.generatedAt} />
          {joined ? <FleetTile /> : null}
        </div>
      );
  }
  const o = overview.data;
  return (
    <div className="page page-wide overview-page">
      <div className="toolbar">
        <h2>At a glance</h2>
        {o?.connection ? (
          <span className="muted ov-connection" data-testid="overview-connection">
            Alarms and devices of <strong>{o.connection.name}</strong>
            {o.connection.signedIn ? '' : ' (signed out: the stored numbers)'}; risk of every connector
          </span>
        ) : null}
      </div>
      {body}
    </div>
  );
}
