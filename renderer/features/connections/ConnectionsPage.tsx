import { getRouteApi } from '@tanstack/react-router';
import clsx from 'clsx';
import type { ComponentType } from 'react';
import { Plus, Rocket } from 'lucide-react';
import { useAppInfo } from '../../api/app';
import { useProfiles, useSessions } from '../../api/connections';
import { useActiveProfile } from '../../app/useActiveProfile';
import { Spinner } from '../../components/Spinner';
import type { ConnectionsTab } from '../../app/search';
import { useUi } from '../../stores/ui';
import { ProfileRow } from './ProfileRow';
import { WelcomePanel, useOpenDemoAction } from '../../app/WelcomePanel';
import { LoadFailed, Loading } from '../../components/QueryState';

const tabs: { id: ConnectionsTab; label: string }[] = [
  { id: 'profiles', label: 'Profiles' },
  { id: 'oauth-clients', label: 'OAuth clients' },
  { id: 'syslog', label: 'Syslog servers' },
];
const route = getRouteApi('/connections');

/** The OAuth clients and syslog tabs are other features' pages, handed in by app/router.tsx (features do not import each other). */
export function ConnectionsPage({ oauthClients: OAuthClientsPage, syslog: SyslogPage }: { oauthClients: ComponentType; syslog: ComponentType }) {
  // The tab is in the address (`?tab=syslog`); each tab is a history entry.
  const { tab } = route.useSearch();
  const navigate = route.useNavigate();
  const setTab = (t: ConnectionsTab) => void navigate({ search: (prev) => ({ ...prev, tab: t }) });
  return (
    <div className="page">
      <div className="tabs" role="tablist" aria-label="Connections">
        {tabs.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`tab-${t.id}`}
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            className={clsx('tab', tab === t.id && 'active')}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`} className="tab-panel">
        {tab === 'profiles' ? <ProfilesView /> : tab === 'oauth-clients' ? <OAuthClientsPage /> : <SyslogPage />}
      </div>
    </div>
  );
}

function ProfilesView() {
  const info = useAppInfo();
  const profiles = useProfiles();
  const sessions = useSessions();
  const openDialog = useUi((s) => s.openDialog);
  const active = useActiveProfile(profiles.data, sessions.data);
  const demo = useOpenDemoAction();

  if (profiles.isPending || info.isPending) {
    return (
      <Loading>Loading connections…</Loading>
    );
  }
  if (profiles.isError) {
    return (
      <LoadFailed onRetry={() => void profiles.refetch()}>The connections could not be loaded.</LoadFailed>
    );
  }
  const list = profiles.data;
  if (info.data?.firstRun || list.length === 0) return <WelcomePanel />;

  return (
    <section aria-labelledby="profiles-title">
      <div className="toolbar">
        <h2 id="profiles-title">
          Connection profiles <span className="count">{list.length}</span>
        </h2>
        <div className="toolbar-actions">
          {!info.data?.demoRunning ? (
            <button type="button" className="button" onClick={() => void demo.open()} disabled={demo.pending}>
              {demo.pending ? <Spinner /> : <Rocket size={14} aria-hidden="true" />}
              Open demo workspace
            </button>
          ) : null}
          <button type="button" className="button button-primary" onClick={() => openDialog({ kind: 'profile-form' })}>
            <Plus size={14} aria-hidden="true" />
            Add connection
          </button>
        </div>
      </div>
      <div className="profile-list-wrap">
        <ul className="profile-list" aria-label="Connection profiles">
          {list.map((p) => (
            <ProfileRow key={p.id} profile={p} status={sessions.data?.find((s) => s.profileId === p.id)} selected={active?.id === p.id} />
          ))}
        </ul>
      </div>
    </section>
  );
}
