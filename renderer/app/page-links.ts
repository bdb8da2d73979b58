/**
 * Where a link to a page goes: the page as this window left it (its filters, view and tab), never
 * with an item opened. The chosen connection is carried along by the router (router.tsx).
 */
import { useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect } from 'react';
import { useUi } from '../stores/ui';
import { sectionMeta, sectionOfPath, type Section, type SectionPath } from './sections';

/** Address keys that are not part of "how the page was left": the window's connection, an opened item. */
const NOT_REMEMBERED = new Set(['connection', 'device', 'host']);

export interface PageLink {
  to: SectionPath;
  search: Record<string, string>;
}

const linkTo = (section: Section, pages: Partial<Record<Section, Record<string, string>>>): PageLink => ({
  to: sectionMeta.find((m) => m.id === section)!.path,
  search: pages[section] ?? {},
});

/** For handlers (shortcuts, the palette): reads the memory when called. */
export function usePageLink(): (section: Section) => PageLink {
  return useCallback((section: Section) => linkTo(section, useUi.getState().pages), []);
}

/** For links that show their target (the sidebar). */
export function usePageLinks(): Record<Section, PageLink> {
  const pages = useUi((s) => s.pages);
  return Object.fromEntries(sectionMeta.map((m) => [m.id, linkTo(m.id, pages)])) as Record<Section, PageLink>;
}

/** Keeps, per page, the search it was last shown with in this window. */
export function useRememberPages(): void {
  const location = useRouterState({ select: (s) => s.location });
  useEffect(() => {
    const meta = sectionOfPath(location.pathname);
    if (!meta) return;
    const kept: Record<string, string> = {};
    for (const [k, v] of Object.entries(location.search as Record<string, unknown>)) if (!NOT_REMEMBERED.has(k) && typeof v === 'string' && v !== '') kept[k] = v;
    useUi.getState().rememberPage(meta.id, kept);
  }, [location]);
}

/**
 * A page left before its draft reached the address (a link or shortcut within the pause,
 * useAddressDraft): the memory of that page takes the draft over what the address last held, so
 * coming back shows what was chosen. The history entry left behind keeps its last written search.
 */
export function rememberLeftDraft(pathname: string, draft: Record<string, unknown>): void {
  const meta = sectionOfPath(pathname);
  if (!meta) return;
  const kept: Record<string, string> = { ...useUi.getState().pages[meta.id] };
  for (const [k, v] of Object.entries(draft)) {
    if (NOT_REMEMBERED.has(k)) continue;
    if (typeof v === 'string' && v !== '') kept[k] = v;
    else delete kept[k];
  }
  useUi.getState().rememberPage(meta.id, kept);
}
