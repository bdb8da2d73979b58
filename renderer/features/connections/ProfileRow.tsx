import clsx from 'clsx';
import { useState } from 'react';
import { Activity, KeyRound, LogIn, LogOut, Pencil, ScrollText, ShieldCheck, Trash2 } from 'lucide-react';
import { toast } from 'sonner';
import type { ProfileView } from '../../../shared/model/profile';
import type { SessionStatus } from '../../../shared/model/session';
import { useSignIn, useSignOut, useTestProfile } from '../../api/connections';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { RowMenu, type RowMenuItem } from '../../components/RowMenu';
import { SessionBadge } from '../../components/SessionBadge';
import { Spinner } from '../../components/Spinner';
import { useChooseConnection, useShowConnectionTab } from '../../app/useActiveProfile';
import { useUi } from '../../stores/ui';
import { activePort, authLabel, tlsLabel } from './labels';

export function ProfileRow({ profile, status, selected }: { profile: ProfileView; status: SessionStatus | undefined; selected: boolean }) {
  // Actions only (stable functions): rows do not re-render on unrelated UI state.
  const ui = useUi.getState();
  const choose = useChooseConnection();
  const showConnectionTab = useShowConnectionTab();
  const signIn = useSignIn();
  const signOut = useSignOut();
  const test = useTestProfile();
  const signedIn = status?.state === 'signed-in';
  const busy = signIn.isPending || signOut.isPending || status?.state === 'signing-in';
  const problem = status?.state === 'error' || status?.state === 'sign-in-required' ? status.error : undefined;

  const [confirmSignOut, setConfirmSignOut] = useState(false);
  const runTest = async () => {
    try {
      const r = await test.mutateAsync(profile.id);
      const title = r.authenticated ? `${profile.name}: reachable and signed in (${Math.round(r.latencyMs)} ms)` : `${profile.name}: reachable (${Math.round(r.latencyMs)} ms), credentials not accepted`;
      (r.authenticated ? toast.success : toast.warning)(title, { description: r.detail });
    } catch {
      // reported by the query client
    }
  };

  // The row (and its menu button) goes away with the tab: focus moves to the tab now shown (the
  // tab buttons stay; the address changes on the router's next tick).
  const showTab = (tab: 'oauth-clients' | 'syslog') => {
    showConnectionTab(profile.id, tab);
    document.getElementById(`tab-${tab}`)?.focus();
  };
  const menu: RowMenuItem[] = [
    { label: 'Test connection', icon: Activity, disabled: test.isPending, onSelect: () => void runTest() },
    { label: 'Trust certificate', icon: ShieldCheck, onSelect: () => ui.openDialog({ kind: 'trust', profileId: profile.id }) },
    ...(profile.authMode === 'oauth'
      ? [
          {
            label: 'OAuth clients',
            icon: KeyRound,
            onSelect: () => showTab('oauth-clients'),
          },
        ]
      : []),
    {
      label: 'Syslog servers',
      icon: ScrollText,
      onSelect: () => showTab('syslog'),
    },
    { label: 'Edit', icon: Pencil, onSelect: () => ui.openDialog({ kind: 'profile-form', profileId: profile.id }) },
    { label: 'Delete', icon: Trash2, danger: true, onSelect: () => ui.openDialog({ kind: 'delete-profile', profileId: profile.id }) },
  ];
  const address = `${profile.username}@${profile.host}:${activePort(profile)}`;

  // One cell per column (name, address, auth, trust, session, actions): the list lays them out as aligned columns.
  return (
    <li className={clsx('profile-row', selected && 'selected')} data-testid={`profile-row-${profile.name}`} data-profile-id={profile.id}>
      <button type="button" className="profile-main" onClick={() => choose(profile.id)} aria-pressed={selected} title="Make this the active connection">
        <span className="profile-name">{profile.name}</span>
        {profile.demo ? <span className="chip chip-accent">demo</span> : null}
      </button>
      <span className="profile-host" title={address}>
        {address}
      </span>
      <span className="profile-auth">
        <span className="chip">{authLabel(profile.authMode)}</span>
      </span>
      <span className="profile-trust">
        <span className={clsx('chip', profile.tls.mode === 'pinned' && !profile.tls.fingerprint256 && 'chip-warn')} title={profile.tls.mode === 'pinned' ? profile.tls.fingerprint256 : undefined}>
          {tlsLabel(profile.tls)}
        </span>
      </span>
      <div className="profile-status">
        <SessionBadge status={status} />
        {problem ? <span className="profile-problem">{problem.message}</span> : null}
      </div>
      <div className="profile-actions">
        {confirmSignOut ? (
          <ConfirmDialog title={`Sign out of ${profile.name}?`} confirmLabel="Sign out" onConfirm={() => signOut.mutateAsync(profile.id)} onClose={() => setConfirmSignOut(false)}>
            <p>
              The session on {profile.host} ends{profile.authMode === 'oauth' ? ' and its tokens are revoked' : ''}. Work that needs the node stops until you sign in again (deployments
              followed here, bulk onboarding, publication of risk scores); the stored lists stay available.
            </p>
          </ConfirmDialog>
        ) : null}
        {signedIn ? (
          <button type="button" className="button button-small" disabled={busy} onClick={() => setConfirmSignOut(true)}>
            {signOut.isPending ? <Spinner /> : <LogOut size={14} aria-hidden="true" />}
            Sign out
          </button>
        ) : (
          <button type="button" className="button button-small button-primary" disabled={busy} onClick={() => signIn.mutate(profile.id)}>
            {busy ? <Spinner /> : <LogIn size={14} aria-hidden="true" />}
            Sign in
          </button>
        )}
        {test.isPending ? <Spinner /> : null}
        <RowMenu items={menu} />
      </div>
    </li>
  );
}
