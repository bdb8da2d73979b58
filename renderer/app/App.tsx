import { createHashHistory, RouterProvider, type RouterHistory } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { Toaster } from 'sonner';
import type { Bridge } from '../../shared/contract';
import { useContractEvents } from '../api/event-sync';
import { showAlarmNotification } from './browser-notifications';
import { showNotice } from './report-error';
import { createAppRouter } from './router';
import { useApplyTheme } from './theme';

/**
 * The window: the router (its pages and their addresses, router.tsx) and the toasts. `history`
 * is the address the router reads and writes: the window's hash by default; tests pass their own.
 */
export function App({ bridge, history }: { bridge?: Bridge; history?: RouterHistory }) {
  const theme = useApplyTheme();
  const [router] = useState(() => createAppRouter(history ?? createHashHistory()));
  // Browser mode's alarm notifications; a click opens the alarm on its connection.
  const onAlarmNotification = useCallback(
    (n: Parameters<typeof showAlarmNotification>[0]) =>
      showAlarmNotification(n, (x) => void router.navigate({ to: '/alarms', search: { connection: x.profileId, alarm: String(x.alarmId) } })),
    [router],
  );
  useContractEvents(showNotice, bridge, onAlarmNotification);
  return (
    <>
      <RouterProvider router={router} />
      {/* Toasts sit bottom-left, over the sidebar, where they cover no dialog buttons (dialog footers are right-aligned). */}
      <Toaster theme={theme} position="bottom-left" closeButton richColors={false} toastOptions={{ className: 'toast' }} />
    </>
  );
}
