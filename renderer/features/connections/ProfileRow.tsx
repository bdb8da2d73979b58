import clsx from 'clsx';
import { useState } from 'react';
import { KeyRound, LogIn, LogOut, Pencil, ShieldCheck, Trash2, Activity } from 'lucide-react';
import { toast } from 'sonner';
import type { ProfileView } from '../../../shared/model/profile';
import type { SessionStatus } from '../../../shared/model/session';
import { useSignIn, useSignOut, useTestProfile } from '../../api/mutations';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { SessionBadge } from '../../components/SessionBadge';
import { Spinner } from '../../components/Spinner';
import { useChooseConnection, useShowOAuthClients } from '../../app/useActiveProfile';
import { useUi } from '../../stores/ui';
import { activePort, authLabel, tlsLabel } from './labels';

export function ProfileRow({ profile, status, selected }: { profile: ProfileView; status: SessionStatus | undefined; selected: boolean }) {
  // Actions only (stable functions): rows do not re-render on unrelated UI state.
  const ui = useUi.getState();
  const choose = useChooseConnection();
  const showOAuthClients = useShowOAuthClients();
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

  return (
    <li className={clsx('profile-row', selected && 'selected')} data-testid={`profile-row-${profile.name}`} data-profile-id={profile.id}>
      <button type="button" className="profile-main" onClick={() => choose(profile.id)} aria-pressed={selected} title="Make this the active connection">
        <span className="profile-name">
          {profile.name}
          {profile.demo ? <span className="chip chip-accent">demo</span> : null}
        </span>
        <span className="profile-host">
          {profile.username}@{profile.host}:{activePort(profile)}
        </span>
      </button>
      <div className="profile-meta">
        <span className="chip">{authLabel(profile.authMode)}</span>
        <span className={clsx('chip', profile.tls.mode === 'pinned' && !profile.tls.fingerprint256 && 'chip-warn')} title={profile.tls.mode === 'pinned' ? profile.tls.fingerprint256 : undefined}>
          {tlsLabel(profile.tls)}
        </span>
      </div>
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
        <button type="button" className="button button-small" disabled={test.isPending} onClick={() => void runTest()}>
          {test.isPending ? <Spinner /> : <Activity size={14} aria-hidden="true" />}
          Test
        </button>
        <button type="button" className="button button-small" onClick={() => ui.openDialog({ kind: 'trust', profileId: profile.id })}>
          <ShieldCheck size={14} aria-hidden="true" />
          Trust certificate
        </button>
        {profile.authMode === 'oauth' ? (
          <button
            type="button"
            className="button button-small"
            onClick={() => showOAuthClients(profile.id)}
          >
            <KeyRound size={14} aria-hidden="true" />
            OAuth clients
          </button>
        ) : null}
        <button type="button" className="button button-small" onClick={() => ui.openDialog({ kind: 'profile-form', profileId: profile.id })}>
          <Pencil size={14} aria-hidden="true" />
          Edit
        </button>
        <button type="button" className="button button-small button-danger-ghost" onClick={() => ui.openDialog({ kind: 'delete-profile', profileId: profile.id })}>
          <Trash2 size={14} aria-hidden="true" />
          Delete
        </button>
      </div>
    </li>
  );
}
