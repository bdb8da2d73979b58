/**
 * Ctrl+K (⌘K): one box to go anywhere — a page, a connection (chosen for the window), a device
 * by name (its details open). cmdk gives the combobox and listbox (arrows, Home/End, Enter);
 * the providers (providers.tsx) do the finding, so cmdk's own filtering is off. Escape or a click
 * outside closes it and focus returns to where it was.
 */
import { Command } from 'cmdk';
import { Search } from 'lucide-react';
import { useCallback, useDeferredValue, useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { createPortal } from 'react-dom';
import { PROVIDERS, type PaletteItem, type PaletteProvider } from './providers';

function ProviderGroup({ provider, query, onRun, onResults }: { provider: PaletteProvider; query: string; onRun(item: PaletteItem): void; onResults(id: string, pending: boolean): void }) {
  const { items, note, pending = false } = provider.useResults(query);
  const ids = items.map((i) => i.id).join('\n');
  useLayoutEffect(() => onResults(provider.id, pending), [ids, pending, provider.id, onResults]);
  if (!items.length && !note) return null;
  return (
    <Command.Group heading={provider.heading} className="command-group">
      {items.map((item) => {
        const Icon = item.icon;
        return (
          <Command.Item key={item.id} value={item.id} className="command-item" onSelect={() => onRun(item)}>
            <Icon size={15} aria-hidden="true" className="command-icon" />
            <span className="command-label">{item.label}</span>
            {item.detail ? <span className="command-detail">{item.detail}</span> : null}
          </Command.Item>
        );
      })}
      {note ? <div className="command-note">{note}</div> : null}
    </Command.Group>
  );
}

export function CommandPalette({ onClose }: { onClose(): void }) {
  const [query, setQuery] = useState('');
  // Typing stays instant; the providers search the settled query.
  const settled = useDeferredValue(query.trim());
  // The highlighted item: the first result of each new query (Enter takes the best match), kept
  // while the operator moves with the arrows, and moved to the first when it disappears.
  const [value, setValue] = useState('');
  const listRef = useRef<HTMLDivElement>(null);
  const highlightedFor = useRef<string | undefined>(undefined);
  // Bumped by a group whose results changed (a list can arrive after the query: the devices, hosts
  // and alarms are the store's answers); the groups whose answer is on its way.
  const [resultsVersion, setResultsVersion] = useState(0);
  const pendingGroups = useRef(new Set<string>());
  const onResults = useCallback((id: string, pending: boolean) => {
    if (pending) pendingGroups.current.add(id);
    else pendingGroups.current.delete(id);
    setResultsVersion((v) => v + 1);
  }, []);
  // Enter pressed while the list still shows an earlier query's results: it goes to the typed
  // query's best match once the list has it, not to what an older list had highlighted.
  const enterPending = useRef(false);
  useLayoutEffect(() => {
    const elements = [...(listRef.current?.querySelectorAll<HTMLElement>('[cmdk-item]') ?? [])];
    const items = elements.map((el) => el.getAttribute('data-value') ?? '');
    let highlighted = value;
    // The first result stays highlighted until every group has answered this query (a store's
    // answer may put a better match first).
    if (!(highlightedFor.current === settled && items.includes(value))) {
      highlightedFor.current = pendingGroups.current.size === 0 ? settled : undefined;
      highlighted = items[0] ?? '';
      if (highlighted !== value) setValue(highlighted);
    }
    // Once the list shows the typed query's results, every group's (a group's may come a moment after the query).
    const caughtUp = settled === query.trim() && pendingGroups.current.size === 0;
    const target = enterPending.current && caughtUp ? elements.find((el) => el.getAttribute('data-value') === highlighted) : undefined;
    if (target) {
      enterPending.current = false;
      target.click();
    }
  }, [settled, value, resultsVersion, query]);

  // Where focus was when the palette opened (read before its input takes focus), to return it there.
  const [previous] = useState(() => document.activeElement as HTMLElement | null);
  useEffect(
    () => () => {
      if (previous && previous !== document.body && document.contains(previous)) previous.focus();
    },
    [previous],
  );

  // Before cmdk sees it: an Enter that would act on a list not yet caught up with the typing, or
  // with a group's answer still on its way, waits for it.
  const onKeyDownCapture = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Enter' && (settled !== query.trim() || pendingGroups.current.size > 0)) {
      e.preventDefault();
      e.stopPropagation();
      enterPending.current = true;
    }
  };

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.key === 'Escape') {
      e.stopPropagation();
      e.preventDefault();
      onClose();
    } else if (e.key === 'Tab') {
      // The input is the palette's only stop; Tab does not wander to the page behind.
      e.preventDefault();
    }
  };

  const run = (item: PaletteItem) => {
    onClose();
    item.run();
  };

  return createPortal(
    <div
      className="dialog-backdrop palette-backdrop"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div role="dialog" aria-modal="true" aria-label="Command palette" className="palette" data-testid="command-palette" onKeyDownCapture={onKeyDownCapture} onKeyDown={onKeyDown}>
        <Command label="Command palette" shouldFilter={false} loop vimBindings={false} value={value} onValueChange={setValue}>
          <div className="command-input">
            <Search size={16} aria-hidden="true" />
            <Command.Input
              autoFocus
              value={query}
              onValueChange={(q) => {
                // Typing after an Enter that waits for its results takes that Enter back.
                enterPending.current = false;
                setQuery(q);
              }}
              placeholder="Go to a page, a connection, a device, a host or an alarm…"
            />
          </div>
          <Command.List ref={listRef} label="Results" className="command-list palette-list">
            <Command.Empty className="command-empty">Nothing matches “{query.trim()}”.</Command.Empty>
            {PROVIDERS.map((p) => (
              <ProviderGroup key={p.id} provider={p} query={settled} onRun={run} onResults={onResults} />
            ))}
          </Command.List>
          <div className="palette-footer" aria-hidden="true">
            <span>
              <kbd>↑</kbd> <kbd>↓</kbd> move
            </span>
            <span>
              <kbd>Enter</kbd> go
            </span>
            <span>
              <kbd>Esc</kbd> close
            </span>
          </div>
        </Command>
      </div>
    </div>,
    document.body,
  );
}
