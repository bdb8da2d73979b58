/** Renders the whole app against a FakeBridge, with a fresh query cache and UI store. */
import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ApiProvider } from '../../../../renderer/api/ApiProvider';
import { createClient } from '../../../../renderer/api/client';
import { createQueryClient } from '../../../../renderer/api/query-client';
import { App } from '../../../../renderer/app/App';
import { reportError } from '../../../../renderer/app/report-error';
import { useBulkSessions } from '../../../../renderer/features/onboarding/bulk/bulk-session';
import { useInventoryUi } from '../../../../renderer/stores/inventory-ui';
import { useUi } from '../../../../renderer/stores/ui';
import { FakeBridge } from './fake-bridge';

const initialUi = useUi.getState();
const initialInventoryUi = useInventoryUi.getState();

export function resetUi(): void {
  useUi.setState(initialUi, true);
  useInventoryUi.setState(initialInventoryUi, true);
  useBulkSessions.setState({ byProfile: {} });
  window.localStorage.clear();
  document.documentElement.removeAttribute('data-theme');
}

export function renderApp(bridge: FakeBridge = new FakeBridge()) {
  resetUi();
  const client = createClient(bridge);
  const queryClient = createQueryClient(reportError);
  const user = userEvent.setup({ delay: null });
  const utils = render(
    <ApiProvider client={client} queryClient={queryClient}>
      <App bridge={bridge} />
    </ApiProvider>,
  );
  return { ...utils, bridge, client, queryClient, user };
}
