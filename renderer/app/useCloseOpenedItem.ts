import { useNavigate, useRouter } from '@tanstack/react-router';
import { useCallback } from 'react';

declare module '@tanstack/react-router' {
  interface HistoryState {
    /** This entry was added by opening an item from its own page (the entry before it is that page without it). */
    openedHere?: boolean;
  }
}

/**
 * Closes the item a page shows from its address (`?device=…`). Opened from the page, closing
 * goes back, so the history holds no entry twice and Forward opens it again; opened from an
 * address (a reload, a bookmark, the command palette), closing removes it in place.
 */
export function useCloseOpenedItem(key: string): () => void {
  const router = useRouter();
  const navigate = useNavigate();
  return useCallback(() => {
    if (router.state.location.state.openedHere && router.history.canGoBack()) router.history.back();
    else void navigate({ to: '.', search: (prev: Record<string, unknown>) => ({ ...prev, [key]: undefined }), replace: true });
  }, [router, navigate, key]);
}
