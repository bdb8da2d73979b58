/**
 * A search box over an always-visible list of choices (the ARIA combobox pattern with an inline
 * listbox): typing filters, Up/Down move the highlighted option, Enter picks it. Enter on the
 * option already picked is left to the form (the wizard's Next). The caller filters.
 */
import clsx from 'clsx';
import { Search } from 'lucide-react';
import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';

export interface SearchableListProps<T> {
  label: string;
  /** Already filtered by `query`. */
  items: readonly T[];
  query: string;
  onQuery(q: string): void;
  itemKey(item: T): string;
  renderItem(item: T): ReactNode;
  /** Key of the chosen item. */
  value: string;
  onPick(item: T): void;
  placeholder?: string;
  error?: string | undefined;
  hint?: ReactNode;
  empty?: ReactNode;
  /** At most this many options are rendered; the rest is "refine the search". */
  limit?: number;
  testId?: string;
  autoFocus?: boolean;
}

export function SearchableList<T>({ label, items, query, onQuery, itemKey, renderItem, value, onPick, placeholder, error, hint, empty, limit = 200, testId, autoFocus }: SearchableListProps<T>) {
  const id = useId();
  const listRef = useRef<HTMLUListElement>(null);
  const shown = items.length > limit ? items.slice(0, limit) : items;
  const chosenAt = shown.findIndex((i) => itemKey(i) === value);
  const [active, setActive] = useState(Math.max(0, chosenAt));
  const activeIdx = Math.min(active, shown.length - 1);
  const optionId = (i: number) => `${id}-opt-${i}`;

  useEffect(() => {
    listRef.current?.querySelector(`[data-pos="${activeIdx}"]`)?.scrollIntoView?.({ block: 'nearest' });
  }, [activeIdx]);

  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setActive(Math.max(0, Math.min(shown.length - 1, activeIdx + (e.key === 'ArrowDown' ? 1 : -1))));
    } else if (e.key === 'Enter') {
      const item = shown[activeIdx];
      if (item && itemKey(item) !== value) {
        e.preventDefault();
        onPick(item);
      }
    }
  };

  return (
    <div className={clsx('field', 'searchable')} data-testid={testId}>
      <label htmlFor={`${id}-input`}>{label}</label>
      <div className="search-box">
        <Search size={14} aria-hidden="true" />
        <input
          id={`${id}-input`}
          type="text"
          role="combobox"
          aria-expanded="true"
          aria-controls={`${id}-list`}
          aria-autocomplete="list"
          aria-activedescendant={shown.length ? optionId(activeIdx) : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error || hint ? `${id}-msg` : undefined}
          placeholder={placeholder}
          value={query}
          onChange={(e) => {
            onQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKeyDown}
          autoComplete="off"
          spellCheck={false}
          autoFocus={autoFocus}
        />
      </div>
      <ul className="searchable-list" role="listbox" id={`${id}-list`} aria-label={label} ref={listRef}>
        {shown.map((item, i) => {
          const key = itemKey(item);
          return (
            <li
              key={key}
              id={optionId(i)}
              role="option"
              aria-selected={key === value}
              data-pos={i}
              className={clsx('searchable-option', i === activeIdx && 'active', key === value && 'chosen')}
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => {
                setActive(i);
                onPick(item);
              }}
            >
              {renderItem(item)}
            </li>
          );
        })}
      </ul>
      {shown.length === 0 ? <p className="searchable-empty">{empty ?? 'Nothing matches.'}</p> : null}
      {items.length > shown.length ? <p className="searchable-empty">{items.length - shown.length} more — refine the search.</p> : null}
      {error ? (
        <p className="field-error" id={`${id}-msg`}>
          {error}
        </p>
      ) : hint ? (
        <p className="field-hint" id={`${id}-msg`}>
          {hint}
        </p>
      ) : null}
    </div>
  );
}
