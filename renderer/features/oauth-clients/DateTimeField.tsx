/** A datetime-local input, read in the zone chosen in Settings, whose form value is an ISO UTC instant, or "" for never. */
import { useId } from 'react';
import { FieldMessage } from '../../components/Field';
import { useTimeFormat } from '../../components/useTimeFormat';

export function DateTimeField({ label, value, onChange, onBlur, error }: { label: string; value: string; onChange(iso: string): void; onBlur?(): void; error?: string | undefined }) {
  const id = useId();
  const tf = useTimeFormat();
  const zone = tf.preference === 'utc' ? 'UTC' : `local time (${tf.zoneLabel(value || undefined)})`;
  const hint = value ? `Entered in ${zone}; sent as ${value}.` : `Empty = never expires. Entered in ${zone}.`;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <div className="input-with-button">
        <input
          id={id}
          type="datetime-local"
          value={tf.toInput(value)}
          onChange={(e) => onChange(tf.fromInput(e.target.value))}
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
