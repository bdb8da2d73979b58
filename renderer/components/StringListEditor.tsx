/** Edits a list of strings (addresses, contacts, redirect URIs) with an error per entry. */
import { Plus, Trash2 } from 'lucide-react';
import { useId } from 'react';

export interface StringListEditorProps {
  legend: string;
  itemLabel: string;
  value: string[];
  onChange(next: string[]): void;
  onBlur?(): void;
  placeholder?: string;
  addLabel: string;
  itemErrors?: (string | undefined)[];
  error?: string | undefined;
  hint?: string;
  inputType?: 'text' | 'email' | 'url';
}

export function StringListEditor({ legend, itemLabel, value, onChange, onBlur, placeholder, addLabel, itemErrors = [], error, hint, inputType = 'text' }: StringListEditorProps) {
  const id = useId();
  const set = (i: number, v: string) => onChange(value.map((x, j) => (j === i ? v : x)));
  const remove = (i: number) => onChange(value.filter((_, j) => j !== i));
  return (
    <fieldset className="list-editor" aria-describedby={error || hint ? `${id}-msg` : undefined}>
      <legend>{legend}</legend>
      {value.length === 0 ? <p className="list-empty">None.</p> : null}
      <ul>
        {value.map((item, i) => {
          const itemError = itemErrors[i];
          const inputId = `${id}-${i}`;
          return (
            <li key={i}>
              <div className="list-row">
                <input
                  id={inputId}
                  type={inputType}
                  value={item}
                  placeholder={placeholder}
                  aria-label={`${itemLabel} ${i + 1}`}
                  aria-invalid={itemError ? true : undefined}
                  aria-describedby={itemError ? `${inputId}-msg` : undefined}
                  onChange={(e) => set(i, e.target.value)}
                  onBlur={onBlur}
                />
                <button type="button" className="icon-button" aria-label={`Remove ${itemLabel.toLowerCase()} #${i + 1}`} onClick={() => remove(i)}>
                  <Trash2 size={14} aria-hidden="true" />
                </button>
              </div>
              {itemError ? (
                <p className="field-error" id={`${inputId}-msg`}>
                  {itemError}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
      <button type="button" className="button button-small button-ghost" onClick={() => onChange([...value, ''])}>
        <Plus size={14} aria-hidden="true" />
        {addLabel}
      </button>
      {error ? (
        <p className="field-error" id={`${id}-msg`}>
          {error}
        </p>
      ) : hint ? (
        <p className="field-hint" id={`${id}-msg`}>
          {hint}
        </p>
      ) : null}
    </fieldset>
  );
}
