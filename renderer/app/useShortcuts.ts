import { useEffect } from 'react';
import { sections, useUi } from '../stores/ui';

/** Ctrl+1…7 (⌘ on macOS) switch sections, unless a dialog is open. */
export function useSectionShortcuts() {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey) return;
      const n = Number(e.key);
      if (!Number.isInteger(n) || n < 1 || n > sections.length) return;
      const ui = useUi.getState();
      if (ui.dialog || document.querySelector('[aria-modal="true"]')) return;
      e.preventDefault();
      ui.setSection(sections[n - 1]!);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);
}
