import { useRouterState } from '@tanstack/react-router';
import { Search } from 'lucide-react';
import { useUi } from '../stores/ui';
import { ConnectionPicker } from './ConnectionPicker';
import { sectionOfPath } from './sections';
import { keyLabel, MOD } from './shortcuts';

export function Header() {
  const pathname = useRouterState({ select: (s) => s.location.pathname });
  const meta = sectionOfPath(pathname);
  const openPalette = () => useUi.getState().setOverlay('palette');
  return (
    <header className="app-header">
      <h1>{meta?.label}</h1>
      <div className="header-actions">
        <button type="button" className="palette-button" onClick={openPalette} aria-keyshortcuts={MOD === '⌘' ? 'Meta+K' : 'Control+K'}>
          <Search size={14} aria-hidden="true" />
          <span>Go to…</span>
          <kbd>{keyLabel([MOD, 'K'])}</kbd>
        </button>
        <ConnectionPicker />
      </div>
    </header>
  );
}
