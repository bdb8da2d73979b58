/**
 * Active alarms of the chosen connection by severity, critical first, with how many nobody
 * handled; per organization on hover (or with "By organization"), the most critical first. Every
 * number opens the Alarms page filtered to what it counts.
 */
import { Link } from '@tanstack/react-router';
import { Bell, LogIn } from 'lucide-react';
import { useId, useState } from 'react';
import { ACTIVE_SEVERITIES, type ActiveSeverity } from '../../../shared/model/alarms';
import type { OverviewAlarms, OverviewConnection } from '../../../shared/model/overview';
import { netText } from '../../../shared/text';
import { useSignIn } from '../../api/connections';
import { formatCount } from '../../components/format';
import { NetText } from '../../components/NetText';
import { Spinner } from '../../components/Spinner';
import { AlarmsLink } from './links';
import { AsOf } from '../../components/AsOf';
import { Tile, TileEmpty } from './Tile';
import { SetupActions } from './SetupActions';

export const SEVERITY_LABEL: Record<ActiveSeverity, string> = { critical: 'Critical', major: 'Major', minor: 'Minor', warning: 'Warning', indeterminate: 'Indeterminate' };
const SEVERITY_SHORT: Record<ActiveSeverity, string> = { critical: 'Crit.', major: 'Maj.', minor: 'Min.', warning: 'Warn.', indeterminate: 'Ind.' };

export function AlarmsTile({ alarms, connection }: { alarms: OverviewAlarms; connection: OverviewConnection | null }) {
  const link = (
    <AlarmsLink to={{}} className="ov-tile-link">
      Alarms
    </AlarmsLink>
  );
  if (alarms.state === 'no-connection' || !connection) {
    return (
      <Tile id="alarms" title="Active alarms" icon={Bell} link={link} footer={<span className="muted">No connection</span>}>
        <TileEmpty actions={<SetupActions what="connection" />}>A connection’s node raises the alarms: add a management node, or open the demo workspace.</TileEmpty>
      </Tile>
    );
  }
  if (alarms.state === 'never') {
    return (
      <Tile id="alarms" title="Active alarms" icon={Bell} link={link} footer={<span className="muted">Nothing collected yet</span>}>
        <NeverCollected connection={connection} collecting={alarms.collecting} />
      </Tile>
    );
  }
  const how = alarms.live
    ? `live (${alarms.source === 'amqp' ? 'broker' : alarms.source === 'fleet' ? 'team collector' : 'polling the node'})`
    : alarms.source === 'fleet'
      ? 'no live team collector of this node'
      : connection.signedIn
        ? 'the alarm source is not connected'
        : `offline: ${connection.name} is signed out`;
  return (
    <Tile id="alarms" title="Active alarms" icon={Bell} link={link} footer={<AsOf className="ov-asof" testId="tile-asof" iso={alarms.asOf}>{` · ${how}`}</AsOf>} className="ov-tile-alarms">
      <p className="ov-bignums">
        <AlarmsLink to={{}} className="ov-bignum" testId="alarms-active" title="Open the active alarms">
          <strong>{formatCount(alarms.active.total)}</strong> active
        </AlarmsLink>
        <AlarmsLink to={{ ack: 'unacked' }} className="ov-bignum" testId="alarms-unacked" title="Open the active alarms nobody acknowledged">
          <strong>{formatCount(alarms.unacknowledged.total)}</strong> unacknowledged
        </AlarmsLink>
      </p>
      <Breakdown alarms={alarms} />
    </Tile>
  );
}

/**
 * How many of a severity's active alarms nobody acknowledged, in words that cannot be read as a
 * second count beside the first ("5  5 unacknowledged"): all, none, or how many; nothing when none
 * is active.
 */
function UnackedOf({ severity, active, unacknowledged }: { severity: ActiveSeverity; active: number; unacknowledged: number }) {
  if (active === 0) return <span className="ov-sub" aria-hidden="true" />;
  if (unacknowledged === 0) return <span className="ov-sub" data-testid={`alarms-${severity}-unacked`}>all acknowledged</span>;
  return (
    <AlarmsLink to={{ severity: [severity], ack: 'unacked' }} className="ov-sub" testId={`alarms-${severity}-unacked`} title={`Open the active ${severity} alarms nobody acknowledged`}>
      {unacknowledged >= active ? 'all unacknowledged' : `${formatCount(unacknowledged)} unacknowledged`}
    </AlarmsLink>
  );
}

/** The severities, and on hover (or the button) the organizations behind them. */
function Breakdown({ alarms }: { alarms: Extract<OverviewAlarms, { state: 'known' }> }) {
  const [open, setOpen] = useState(false);
  const orgsId = useId();
  return (
    <div className="ov-alarm-breakdown" data-open={open}>
      <ul className="ov-sev-list" aria-label="Active alarms by severity">
        {ACTIVE_SEVERITIES.map((s) => (
          <li key={s} className={`ov-sev ov-sev-${s}`} data-testid={`alarms-row-${s}`}>
            <span className="ov-dot" aria-hidden="true" />
            <span className="ov-sev-name">{SEVERITY_LABEL[s]}</span>
            <AlarmsLink to={{ severity: [s] }} className="ov-count" testId={`alarms-${s}`} title={`Open the active ${s} alarms`}>
              {formatCount(alarms.active[s])}
            </AlarmsLink>
            <UnackedOf severity={s} active={alarms.active[s]} unacknowledged={alarms.unacknowledged[s]} />
          </li>
        ))}
      </ul>
      {alarms.organizations.length > 0 ? (
        <>
          <button type="button" className="link-button ov-orgs-toggle" aria-expanded={open} aria-controls={orgsId} onClick={() => setOpen((o) => !o)}>
            By organization ({formatCount(alarms.organizations.length + alarms.moreOrganizations)})
          </button>
          <div className="ov-orgs" id={orgsId} data-testid="alarms-orgs" role="group" aria-label="Active alarms by organization">
            <table>
              <thead>
                <tr>
                  <th scope="col">Organization</th>
                  {ACTIVE_SEVERITIES.map((s) => (
                    <th key={s} scope="col" className="num">
                      <abbr title={SEVERITY_LABEL[s]}>{SEVERITY_SHORT[s]}</abbr>
                    </th>
                  ))}
                  <th scope="col" className="num">
                    <abbr title="Unacknowledged">Unack.</abbr>
                  </th>
                </tr>
              </thead>
              <tbody>
                {alarms.organizations.map((o) => (
                  <tr key={o.org} data-testid="alarms-org">
                    <th scope="row">
                      <AlarmsLink to={{ org: o.org }} title={`Open the active alarms of ${netText(o.org)}`}>
                        {o.org ? <NetText text={o.org} /> : '(no organization)'}
                      </AlarmsLink>
                    </th>
                    {ACTIVE_SEVERITIES.map((s) => (
                      <td key={s} className={`num ${o[s] > 0 ? `ov-sev-${s}` : 'muted'}`}>
                        {formatCount(o[s])}
                      </td>
                    ))}
                    <td className="num">{formatCount(o.unacknowledged)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            {alarms.moreOrganizations > 0 ? <p className="muted">and {formatCount(alarms.moreOrganizations)} more organizations with fewer alarms</p> : null}
          </div>
        </>
      ) : null}
    </div>
  );
}

function NeverCollected({ connection, collecting }: { connection: OverviewConnection; collecting: boolean }) {
  const signIn = useSignIn();
  if (collecting || connection.signedIn) {
    return (
      <TileEmpty>
        <Spinner /> Collecting the alarms of {connection.name}…
      </TileEmpty>
    );
  }
  return (
    <TileEmpty
      actions={
        <>
          <button type="button" className="button button-small button-primary" onClick={() => signIn.mutate(connection.profileId)} disabled={signIn.isPending}>
            {signIn.isPending ? <Spinner /> : <LogIn size={14} aria-hidden="true" />}
            Sign in to {connection.name}
          </button>
          <Link to="/connections" className="button button-small button-ghost">
            Connections
          </Link>
        </>
      }
    >
      The alarms of {connection.name} were never collected: they are collected while it is signed in, and kept for offline use.
    </TileEmpty>
  );
}
