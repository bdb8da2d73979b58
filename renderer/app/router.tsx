/**
 * Every page has an address (TanStack Router over HASH history, so the same addresses work in
 * `northbound://app/index.html#/devices` and in browser mode): reload, a bookmark, a second
 * window and back/forward all return to the page, its connection, its filters and its opened
 * item. The route table (docs/architecture.md, "Window patterns"):
 *
 *   /overview       (the page a window opens on once a connection or connector exists)
 *   /connections    ?tab=profiles|oauth-clients|syslog
 *   /devices        ?q &org &group &status &reach &sync &sort &order &device (details open)
 *   /organizations  ?view=tree|list &q
 *   /zta            ?customer &platform &band &vendor &connector &q &sort &order &host (details open)
 *   /zta/report     ?customer &platform &band &vendor &connector &q (the dashboard's filters) &print=1
 *   /alarms         ?severity (comma list) &org &device &type &q &state=open|cleared|all &ack=all|unacked &alarm (details open)
 *   /connectors, /settings, /activity
 *   every page      ?connection=<profile id> (the header's choice, kept across pages)
 *
 * The search of each route is checked by search.ts: a bad or stale value falls back to its default.
 * `/` and an unknown path open the start page (StartPage.tsx): Overview once anything is
 * configured, else Connections with its welcome.
 */
import { createRootRoute, createRoute, createRouter, Navigate, retainSearchParams, stripSearchParams, type RouterHistory, type SearchSchemaInput } from '@tanstack/react-router';
import { AlarmsPage } from '../features/alarms/AlarmsPage';
import { ConnectionsPage } from '../features/connections/ConnectionsPage';
import { ConnectorsPage } from '../features/connectors/ConnectorsPage';
import { DevicesPage } from '../features/devices/DevicesPage';
import { OAuthClientsPage } from '../features/oauth-clients/OAuthClientsPage';
import { BulkOnboardingDialog } from '../features/onboarding/bulk/BulkOnboardingDialog';
import { OnboardingWizard } from '../features/onboarding/OnboardingWizard';
import { OrganizationsPage } from '../features/organizations/OrganizationsPage';
import { OverviewPage } from '../features/overview/OverviewPage';
import { SettingsPage } from '../features/settings/SettingsPage';
import { ActivityPage } from '../features/activity/ActivityPage';
import { SyslogPage } from '../features/syslog/SyslogPage';
import { ReportPage } from '../features/zta/report/ReportPage';
import { reportSearch, type ReportSearch } from '../features/zta/report/report-search';
import { ZtaPage } from '../features/zta/ZtaPage';
import {
  alarmsDefaults,
  alarmsSearch,
  type AlarmsSearch,
  connectionsDefaults,
  connectionsSearch,
  devicesDefaults,
  devicesSearch,
  organizationsDefaults,
  organizationsSearch,
  parseSearch,
  rootSearch,
  stringifySearch,
  type ConnectionsTab,
  type DevicesSearch,
  type OrganizationsSearch,
  type ZtaSearch,
  ztaDefaults,
  ztaSearch,
} from './search';
import { Shell } from './Shell';
import { StartPage } from './StartPage';

// The window's frame (Shell) is the router's InnerWrap, not the root route's component: it renders
// at once, and the page below it once the address is matched.
const rootRoute = createRootRoute({
  validateSearch: (raw: { connection?: string } & SearchSchemaInput) => rootSearch.parse(raw),
  // The chosen connection stays in the address from page to page.
  search: { middlewares: [retainSearchParams(['connection'])] },
  notFoundComponent: () => <Navigate to="/" replace />,
});

// Pages that show another feature's page or dialog are composed here, so no feature imports another (issue 21.2).
function ConnectionsRoute() {
  return <ConnectionsPage oauthClients={OAuthClientsPage} syslog={SyslogPage} />;
}
function DevicesRoute() {
  return <DevicesPage onboardingWizard={OnboardingWizard} bulkOnboarding={BulkOnboardingDialog} />;
}

// Where a window opens: decided once the connections and connectors are known (StartPage.tsx).
const indexRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: StartPage });

const overviewRoute = createRoute({ getParentRoute: () => rootRoute, path: 'overview', component: OverviewPage });

const connectionsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'connections',
  validateSearch: (raw: { tab?: ConnectionsTab } & SearchSchemaInput) => connectionsSearch.parse(raw),
  search: { middlewares: [stripSearchParams(connectionsDefaults)] },
  component: ConnectionsRoute,
});

const devicesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'devices',
  validateSearch: (raw: Partial<DevicesSearch> & SearchSchemaInput) => devicesSearch.parse(raw),
  search: { middlewares: [stripSearchParams(devicesDefaults)] },
  component: DevicesRoute,
});

const organizationsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'organizations',
  validateSearch: (raw: Partial<OrganizationsSearch> & SearchSchemaInput) => organizationsSearch.parse(raw),
  search: { middlewares: [stripSearchParams(organizationsDefaults)] },
  component: OrganizationsPage,
});

const ztaRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'zta',
  validateSearch: (raw: Partial<ZtaSearch> & SearchSchemaInput) => ztaSearch.parse(raw),
  search: { middlewares: [stripSearchParams(ztaDefaults)] },
  component: ZtaPage,
});

const alarmsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'alarms',
  validateSearch: (raw: Partial<AlarmsSearch> & SearchSchemaInput) => alarmsSearch.parse(raw),
  search: { middlewares: [stripSearchParams(alarmsDefaults)] },
  component: AlarmsPage,
});

// The printable risk report (features/zta/report): the dashboard's filters, and print=1 for the desktop's PDF window.
const ztaReportRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: 'zta/report',
  validateSearch: (raw: Partial<ReportSearch> & SearchSchemaInput) => reportSearch.parse(raw),
  component: ReportPage,
});

const connectorsRoute = createRoute({ getParentRoute: () => rootRoute, path: 'connectors', component: ConnectorsPage });
const settingsRoute = createRoute({ getParentRoute: () => rootRoute, path: 'settings', component: SettingsPage });
const activityRoute = createRoute({ getParentRoute: () => rootRoute, path: 'activity', component: ActivityPage });

const routeTree = rootRoute.addChildren([indexRoute, overviewRoute, connectionsRoute, devicesRoute, organizationsRoute, alarmsRoute, ztaRoute, ztaReportRoute, connectorsRoute, settingsRoute, activityRoute]);

export function createAppRouter(history: RouterHistory) {
  return createRouter({ routeTree, history, parseSearch, stringifySearch, scrollRestoration: false, InnerWrap: Shell });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
