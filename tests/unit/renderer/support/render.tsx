/**
 * Renders the whole app against a real main (support/main-bridge.ts), with a fresh query cache
 * and UI store, at an address of the window (`at`, the part after `#`: `/devices?org=Acme`).
 */
import { createHashHistory, type RouterHistory } from '@tanstack/react-router';
import { configure, render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiProvider } from '../../../../renderer/api/ApiProvider';
import { createClient } from '../../../../renderer/api/client';
import { createQueryClient } from '../../../../renderer/api/query-client';
import { App } from '../../../../renderer/app/App';
import { reportError } from '../../../../renderer/app/report-error';
import { useBulkSessions } from '../../../../renderer/features/onboarding/bulk/bulk-session';
import { useUi } from '../../../../renderer/stores/ui';
import type { Bridge } from '../../../../shared/contract';
import type { MainBridge } from './main-bridge';
import { installBrowserGaps } from './browser-gaps';

// The window waits on a real main in a worker: a 2,000-device list takes 0.5–1 s to load alone and
// several times that on a loaded machine (a CI run beside other work). findBy/waitFor are deadlines,
// not sleeps (they end as soon as the state is there), so a longer one costs a passing test nothing.
configure({ asyncUtilTimeout: 5_000 });

const initialUi = useUi.getState();
const histories: RouterHistory[] = [];

/** The routers of the test stop watching the window's address (support/setup.ts, after each test). */
export function destroyHistories(): void {
  for (const h of histories.splice(0)) h.destroy();
}

export function resetUi(): void {
  useUi.setState(initialUi, true);
  useBulkSessions.setState({ byProfile: {} });
  window.localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
}

/** The address the window shows, after `#` (`/devices?org=Acme`). */
export const address = () => decodeURIComponent(window.location.hash.slice(1));

export interface RenderOptions {
  /** Stands between the window and `main`, e.g. to hold an answer back and so fix the order in which an answer and an event arrive; it must pass everything on to `main`. */
  transport?: Bridge;
  /**
   * The address to open, after `#` (default `/connections`). `/` is where a new window opens: the
   * Overview once a connection or connector exists, else Connections (app/StartPage.tsx).
   */
  at?: string;
  /** What an earlier window of the same browser left in localStorage (e.g. the remembered connection). */
  storage?: Record<string, string>;
}

export function renderApp(main: MainBridge, options: RenderOptions = {}) {
  resetUi();
  for (const [k, v] of Object.entries(options.storage ?? {})) window.localStorage.setItem(k, v);
  installBrowserGaps();
  window.history.replaceState(null, '', `/#${options.at ?? '/connections'}`);
  const history = createHashHistory();
  histories.push(history);
  const transport = options.transport ?? main;
  const client = createClient(transport);
  const queryClient = createQueryClient(reportError);
  const user = userEvent.setup({ delay: null });
  const utils = render(
    <ApiProvider client={client} queryClient={queryClient}>
      <App bridge={transport} history={history} />
    </ApiProvider>,
  );
  return { ...utils, main, client, queryClient, user, history };
}
