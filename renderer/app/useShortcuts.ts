import { useRouter } from '@tanstack/react-router';
import { useEffect } from 'react';
import { useUi } from '../stores/ui';
import { usePageLink } from './page-links';
import { sectionMeta } from './sections';
import { SIDEBAR_KEY } from './shortcuts';
import { toggleSidebar } from './sidebar';

/** A field where typing `?` means the character. */
function isTextEntry(el: Element | null): boolean {
  if (!(el instanceof HTMLElement)) return false;
  if (el.isContentEditable) return true;
  if (el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement) return true;
  return el instanceof HTMLInputElement && !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(el.type);
}

const modalOpen = () => document.querySelector('[aria-modal="true"]') !== null;

/**
 * The window's shortcuts (listed in shortcuts.ts): Ctrl+1…9 (⌘ on macOS) go to a page, Ctrl+K
 * toggles the command palette and Ctrl+B the sidebar, unless a dialog is open; `?` outside a text
 * field lists them all.
 */
export function useGlobalShortcuts() {
  const router = useRouter();
  const pageLink = usePageLink();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented) return;
      const ui = useUi.getState();
      const mod = (e.ctrlKey || e.metaKey) && !e.altKey && !e.shiftKey;
      if (mod && e.key.toLowerCase() === 'k') {
        if (ui.overlay === 'palette') {
          e.preventDefault();
          ui.setOverlay(undefined);
        } else if (!ui.dialog && !modalOpen()) {
          e.preventDefault();
          ui.setOverlay('palette');
        }
        return;
      }
      if (mod && e.key.toLowerCase() === SIDEBAR_KEY.toLowerCase()) {
        if (ui.dialog || ui.overlay || modalOpen()) return;
        e.preventDefault();
        toggleSidebar();
        return;
      }
      if (mod) {
        const n = Number(e.key);
        if (!Number.isInteger(n) || n < 1 || n > sectionMeta.length) return;
        if (ui.dialog || ui.overlay || modalOpen()) return;
        e.preventDefault();
        void router.navigate(pageLink(sectionMeta[n - 1]!.id));
        return;
      }
      if (e.key === '?' && !e.ctrlKey && !e.metaKey && !e.altKey && !isTextEntry(document.activeElement) && !ui.dialog && !ui.overlay && !modalOpen()) {
        e.preventDefault();
        ui.setOverlay('shortcuts');
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [router, pageLink]);
}
