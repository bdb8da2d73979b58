import './zod-setup';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { ApiProvider } from './api/ApiProvider';
import { getBridge } from './api/bridge';
import { createClient } from './api/client';
import { createQueryClient } from './api/query-client';
import { App } from './app/App';
import { reportError } from './app/report-error';
import { resolveTheme } from './app/theme';
import { useUi } from './stores/ui';

// Paint the remembered theme before the first render (no flash of the wrong one).
document.documentElement.dataset.theme = resolveTheme(useUi.getState().theme, window.matchMedia?.('(prefers-color-scheme: dark)').matches ?? false);

const bridge = getBridge();
const client = createClient(bridge);
const queryClient = createQueryClient(reportError);

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

createRoot(root).render(
  <StrictMode>
    <ApiProvider client={client} queryClient={queryClient}>
      <App bridge={bridge} />
    </ApiProvider>
  </StrictMode>,
);
