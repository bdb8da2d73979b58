import { Toaster } from 'sonner';
import type { Bridge } from '../../shared/contract';
import { useContractEvents } from '../api/event-sync';
import { ConnectionsPage } from '../features/connections/ConnectionsPage';
import { ConnectorsPage } from '../features/connectors/ConnectorsPage';
import { DevicesPage } from '../features/devices/DevicesPage';
import { OrganizationsPage } from '../features/organizations/OrganizationsPage';
import { ComingSoonPage } from '../features/placeholders/ComingSoonPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { useUi } from '../stores/ui';
import { Dialogs } from './Dialogs';
import { Header } from './Header';
import { showNotice } from './report-error';
import { Sidebar } from './Sidebar';
import { sectionMeta } from './sections';
import { useApplyTheme } from './theme';
import { useSectionShortcuts } from './useShortcuts';

export function App({ bridge }: { bridge?: Bridge }) {
  const theme = useApplyTheme();
  useContractEvents(showNotice, bridge);
  useSectionShortcuts();
  const section = useUi((s) => s.section);
  const meta = sectionMeta.find((m) => m.id === section);
  return (
    <>
      <div className="app">
        <Sidebar />
        <div className="main">
          <Header />
          <main className="content" id="content">
            {section === 'connections' ? (
              <ConnectionsPage />
            ) : section === 'devices' ? (
              <DevicesPage />
            ) : section === 'organizations' ? (
              <OrganizationsPage />
            ) : section === 'connectors' ? (
              <ConnectorsPage />
            ) : section === 'settings' ? (
              <SettingsPage />
            ) : meta?.comingSoon ? (
              <ComingSoonPage meta={meta} />
            ) : null}
          </main>
        </div>
      </div>
      {/* Outside the grid: overlays must not become grid rows. Toasts sit bottom-left, over the
          sidebar, where they cover no dialog buttons (dialog footers are right-aligned). */}
      <Dialogs />
      <Toaster theme={theme} position="bottom-left" closeButton richColors={false} toastOptions={{ className: 'toast' }} />
    </>
  );
}
