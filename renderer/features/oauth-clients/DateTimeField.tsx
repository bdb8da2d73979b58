/** A datetime-local input whose form value is an ISO UTC instant, or "" for never. */
import { useId } from 'react';
import { FieldMessage } from '../../components/Field';
import { isoToLocalInput, localInputToIso } from '../../components/format';

export function DateTimeField({ label, value, onChange, onBlur, error }: { label: string; value: string; onChange(iso: string): void; onBlur?(): void; error?: string | undefined }) {
  const id = useId();
  const hint = value ? `Sent as ${value} (UTC).` : 'Empty = never expires.';
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-with-button">
        <input
          id={id}
          type="datetime-local"
          value={isoToLocalInput(value)}
          onChange={(e) => onChange(localInputToIso(e.target.value))}
          onBlur={onBlur}
          aria-invalid={error ? true : undefined}
          aria-describedby={`${id}-msg`}
        />
        <button type="button" className="button button-small button-ghost" onClick={() => onChange('')} disabled={!value} aria-label={`Never: ${label}`}>
          Never
        </button>
      </div>
      <FieldMessage id={id} error={error} hint={hint} />
    </div>
  );
}
