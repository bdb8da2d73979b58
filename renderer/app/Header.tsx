import { useProfiles, useSessions } from '../api/queries';
import { SessionBadge } from '../components/SessionBadge';
import { useUi } from '../stores/ui';
import { sectionMeta } from './sections';
import { useActiveProfile } from './useActiveProfile';

export function Header() {
  const section = useUi((s) => s.section);
  const meta = sectionMeta.find((m) => m.id === section);
  const profiles = useProfiles();
  const sessions = useSessions();
  const active = useActiveProfile(profiles.data, sessions.data);
  const status = active ? sessions.data?.find((s) => s.profileId === active.id) : undefined;
  return (
    <header className="app-header">
      <h1>{meta?.label}</h1>
      <div className="active-connection" aria-label="Active connection">
        {active ? (
          <>
            <span className="active-name" data-testid="active-connection">
              {active.name}
            </span>
            <span className="active-host">
              {active.host}:{active.authMode === 'oauth' ? active.oauthPort : active.basicPort}
            </span>
            <SessionBadge status={status} testId="active-session-badge" />
          </>
        ) : (
          <span className="muted">No connection</span>
        )}
      </div>
    </header>
  );
}
