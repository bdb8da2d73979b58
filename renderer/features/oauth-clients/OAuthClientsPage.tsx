import { KeyRound, LogIn, Pencil, Plus } from 'lucide-react';
import { useState } from 'react';
import type { CreatedOAuthClient } from '../../../shared/contract';
import type { OAuthClient } from '../../../shared/model/oauth-client';
import { useSignIn, useProfiles, useSessions } from '../../api/connections';
import { useOAuthClients } from '../../api/oauth-clients';
import { useActiveProfile, useChooseConnection } from '../../app/useActiveProfile';
import { SessionBadge } from '../../components/SessionBadge';
import { Spinner } from '../../components/Spinner';
import { formatDuration } from '../../components/format';
import { DateTime } from '../../components/Time';
import { CreatedClientDialog } from './CreatedClientDialog';
import { OAuthClientFormDialog } from './OAuthClientFormDialog';
import { Loading } from '../../components/QueryState';

type Editing = { mode: 'create' } | { mode: 'edit'; client: OAuthClient } | undefined;

export function OAuthClientsPage() {
  const profiles = useProfiles();
  const sessions = useSessions();
  // The connection chosen in the header; clients are managed only through an OAuth one (C-8).
  const active = useActiveProfile(profiles.data, sessions.data);
  const choose = useChooseConnection();
  const oauthProfiles = (profiles.data ?? []).filter((p) => p.authMode === 'oauth');
  const profile = active?.authMode === 'oauth' ? active : undefined;
  const clients = useOAuthClients(profile?.id);
  const signIn = useSignIn();
  const [editing, setEditing] = useState<Editing>();
  const [created, setCreated] = useState<CreatedOAuthClient>();

  if (profiles.isPending) {
    return (
      <Loading>Loading…</Loading>
    );
  }
  if (!profile) {
    return (
      <div className="empty" data-testid="oauth-clients-need-oauth">
        <KeyRound size={22} aria-hidden="true" />
        <p>OAuth clients are managed through a connection that signs in with OAuth, as an admin user with an admin client.</p>
        {active && oauthProfiles.length ? (
          <>
            <p className="muted">{active.name} signs in with basic authentication. Choose an OAuth connection:</p>
            <div className="empty-actions">
              {oauthProfiles.map((p) => (
                <button key={p.id} type="button" className="button" onClick={() => choose(p.id)}>
                  Use {p.name}
                </button>
              ))}
            </div>
          </>
        ) : (
          <p className="muted">Add an OAuth connection on the Profiles tab, or open the demo workspace.</p>
        )}
      </div>
    );
  }
  const status = sessions.data?.find((s) => s.profileId === profile.id);
  const list = clients.data ?? [];

  return (
    <section aria-labelledby="clients-title">
      <div className="toolbar">
        <h2 id="clients-title">
          OAuth clients <span className="count">{list.length}</span>
        </h2>
        <div className="toolbar-actions">
          <span className="muted">{profile.name}</span>
          <SessionBadge status={status} testId="oauth-session-badge" />
          <button type="button" className="button button-primary" onClick={() => setEditing({ mode: 'create' })}>
            <Plus size={14} aria-hidden="true" />
            New client
          </button>
        </div>
      </div>
      {status?.state !== 'signed-in' ? (
        <div className="callout callout-info">
          <span>Creating and updating clients needs a signed-in session on {profile.name} (an admin user and a client allowed client_credentials).</span>
          <button type="button" className="button button-small" onClick={() => signIn.mutate(profile.id)} disabled={signIn.isPending}>
            {signIn.isPending ? <Spinner /> : <LogIn size={14} aria-hidden="true" />}
            Sign in
          </button>
        </div>
      ) : null}
      {list.length === 0 ? (
        <div className="empty">
          <p>No clients created or updated from this console yet.</p>
          <p className="muted">The node has no list endpoint; this list shows the clients Northbound created or updated for {profile.name}.</p>
        </div>
      ) : (
        <div className="table-wrap oauth-table-wrap">
          <table className="table oauth-table" aria-label="OAuth clients">
            <thead>
              <tr>
                <th>Name</th>
                <th className="col-client-id">Client ID</th>
                <th className="col-grants">Grant types</th>
                <th className="col-validity">Access / refresh</th>
                <th className="col-source">Source</th>
                <th className="col-expires">Expires</th>
                <th>Status</th>
                <th aria-label="Actions" />
              </tr>
            </thead>
            <tbody>
              {list.map((c) => (
                <tr key={c.client_id} data-testid={`oauth-client-row-${c.name}`}>
                  <td className="strong">{c.name}</td>
                  <td className="mono small nowrap col-client-id">{c.client_id}</td>
                  <td className="mono small col-grants">{c.allowed_grant_types.join(', ')}</td>
                  <td className="nowrap col-validity">
                    {formatDuration(c.access_token_validity)} / {formatDuration(c.refresh_token_validity)}
                  </td>
                  <td className="col-source">{c.allowed_source_client_address.source_type === 'ANYWHERE' ? 'Anywhere' : c.allowed_source_client_address.ip_address_list.join(', ')}</td>
                  <td className="col-expires">{c.expires_at ? <DateTime iso={c.expires_at} /> : 'Never'}</td>
                  <td>{c.enabled ? <span className="chip chip-ok">enabled</span> : <span className="chip">disabled</span>}</td>
                  <td className="actions">
                    <button type="button" className="button button-small" onClick={() => setEditing({ mode: 'edit', client: c })} aria-label={`Edit ${c.name}`}>
                      <Pencil size={14} aria-hidden="true" />
                      Edit
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {editing ? (
        <OAuthClientFormDialog
          key={editing.mode === 'edit' ? editing.client.client_id : 'new'}
          profileId={profile.id}
          client={editing.mode === 'edit' ? editing.client : undefined}
          onClose={() => setEditing(undefined)}
          onCreated={(c) => {
            setEditing(undefined);
            setCreated(c);
          }}
        />
      ) : null}
      {created ? <CreatedClientDialog created={created} onClose={() => setCreated(undefined)} /> : null}
    </section>
  );
}
