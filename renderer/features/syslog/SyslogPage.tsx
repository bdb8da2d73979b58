/**
 * The syslog servers of a management node (spec 2.4), read from the node, with a form to add one.
 * Any connection works: an OAuth one reaches the configuration API on the basic-auth port as the
 * same user (C-9). The connection is the one chosen in the header.
 */
import { LogIn, ScrollText } from 'lucide-react';
import { useSyslogServers } from '../../api/inventory';
import { useSignIn, useProfiles, useSessions } from '../../api/connections';
import { useActiveProfile } from '../../app/useActiveProfile';
import { SessionBadge } from '../../components/SessionBadge';
import { Spinner } from '../../components/Spinner';
import { SyslogForm } from './SyslogForm';
import type { SyslogServer } from '../../../shared/model/inventory';
import { Loading } from '../../components/QueryState';

/** No servers listed (yet): one stable empty list, so the form's check is not rebuilt each render. */
const NONE: readonly SyslogServer[] = [];

export function SyslogPage() {
  const profiles = useProfiles();
  const sessions = useSessions();
  const profile = useActiveProfile(profiles.data, sessions.data);
  const status = profile ? sessions.data?.find((s) => s.profileId === profile.id) : undefined;
  const signedIn = status?.state === 'signed-in';
  const servers = useSyslogServers(signedIn ? profile?.id : undefined);
  const signIn = useSignIn();

  if (profiles.isPending) {
    return (
      <Loading>Loading…</Loading>
    );
  }
  if (!profile) {
    return (
      <div className="empty">
        <ScrollText size={22} aria-hidden="true" />
        <p>Syslog servers are configured on a management node.</p>
        <p className="muted">Add a connection on the Profiles tab, or open the demo workspace.</p>
      </div>
    );
  }
  const list = servers.data ?? [];
  return (
    <section aria-labelledby="syslog-title" className="syslog">
      <div className="toolbar">
        <h2 id="syslog-title">
          Syslog servers {signedIn && servers.data ? <span className="count">{list.length}</span> : null}
        </h2>
        <div className="toolbar-actions">
          <span className="muted">{profile.name}</span>
          <SessionBadge status={status} testId="syslog-session-badge" />
        </div>
      </div>
      {!signedIn ? (
        <div className="callout callout-info">
          <span>The syslog servers are read from the node: sign in to {profile.name} to see and add them.</span>
          <button type="button" className="button button-small" onClick={() => signIn.mutate(profile.id)} disabled={signIn.isPending}>
            {signIn.isPending ? <Spinner /> : <LogIn size={14} aria-hidden="true" />}
            Sign in
          </button>
        </div>
      ) : servers.isPending ? (
        <Loading>Reading the syslog servers of {profile.name}…</Loading>
      ) : list.length === 0 ? (
        <div className="empty">
          <p>{profile.name} sends to no syslog server yet.</p>
        </div>
      ) : (
        <div className="table-wrap">
          <table className="table" aria-label="Syslog servers" data-testid="syslog-list">
            <thead>
              <tr>
                <th>Host</th>
                <th>Port</th>
                <th>Status</th>
              </tr>
            </thead>
            <tbody>
              {list.map((s) => (
                <tr key={`${s.host}:${s.port}`} data-testid={`syslog-row-${s.host}:${s.port}`}>
                  <td className="mono">{s.host}</td>
                  <td className="mono">{s.port}</td>
                  <td>{s.enabled ? <span className="chip chip-ok">enabled</span> : <span className="chip">disabled</span>}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <SyslogForm key={profile.id} profileId={profile.id} disabled={!signedIn} servers={servers.data ?? NONE} />
    </section>
  );
}
