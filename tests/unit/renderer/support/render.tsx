/** Renders the whole app against a real main (support/main-bridge.ts), with a fresh query cache and UI store. */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach } from 'vitest';
import { ApiProvider } from '../../../../renderer/api/ApiProvider';
import { createClient } from '../../../../renderer/api/client';
import { createQueryClient } from '../../../../renderer/api/query-client';
import { App } from '../../../../renderer/app/App';
import { reportError } from '../../../../renderer/app/report-error';
import { useBulkSessions } from '../../../../renderer/features/onboarding/bulk/bulk-session';
import { useInventoryUi } from '../../../../renderer/stores/inventory-ui';
import { useUi } from '../../../../renderer/stores/ui';
import type { Bridge } from '../../../../shared/contract';
import { closeAll, type MainBridge } from './main-bridge';

const initialUi = useUi.getState();
const initialInventoryUi = useInventoryUi.getState();

// Every main and simulator a test started stops after it (the worker stays for the file).
afterEach(async () => {
  await closeAll();
});

export function resetUi(): void {
  useUi.setState(initialUi, true);
  useInventoryUi.setState(initialInventoryUi, true);
  useBulkSessions.setState({ byProfile: {} });
  window.localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
}

/**
 * `transport` (optional) stands between the window and `main`, e.g. to hold an answer back and
 * so fix the order in which an answer and an event arrive; it must pass everything on to `main`.
 */
export function renderApp(main: MainBridge, transport: Bridge = main) {
  resetUi();
  const client = createClient(transport);
  const queryClient = createQueryClient(reportError);
  const user = userEvent.setup({ delay: null });
  const utils = render(
    <ApiProvider client={client} queryClient={queryClient}>
      <App bridge={transport} />
    </ApiProvider>,
  );
  return { ...utils, main, client, queryClient, user };
}
