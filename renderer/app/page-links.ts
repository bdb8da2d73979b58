/**
 * Where a link to a page goes: the page as this window left it (its filters, view and tab), never
 * with an item opened. The chosen connection is carried along by the router (router.tsx).
 */
import { useRouterState } from '@tanstack/react-router';
import { useCallback, useEffect } from 'react';
import { useUi } from '../stores/ui';
import { sectionMeta, sectionOfPath, type Section, type SectionPath } from './sections';

/** The key of each page's opened item: with the window's connection, not part of "how the page was left" (`device` is a filter of the alarms). */
const OPENED_ITEM: Partial<Record<Section, string>> = { devices: 'device', zta: 'host', alarms: 'alarm' };
const remembered = (section: Section, key: string) => key !== 'connection' && OPENED_ITEM[section] !== key;

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
    for (const [k, v] of Object.entries(location.search as Record<string, unknown>)) if (remembered(meta.id, k) && typeof v === 'string' && v !== '') kept[k] = v;
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
    if (!remembered(meta.id, k)) continue;
    if (typeof v === 'string' && v !== '') kept[k] = v;
    else delete kept[k];
  }
  useUi.getState().rememberPage(meta.id, kept);
}
