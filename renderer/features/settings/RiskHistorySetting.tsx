/**
 * How long risk history is kept (EDR-H4): whole days, checked in the window with the same schema
 * main uses, saved when the operator presses Save (or Enter).
 */
import { Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { RiskHistoryDays } from '../../../shared/model/settings';
import { useUpdateSettings } from '../../api/mutations';
import { useSettings } from '../../api/queries';
import { TextField } from '../../components/Field';

export function RiskHistorySetting() {
  const settings = useSettings();
  const update = useUpdateSettings();
  const stored = settings.data?.riskHistoryDays;
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const text = draft ?? (stored === undefined ? '' : String(stored));
  const parsed = RiskHistoryDays.safeParse(text.trim() === '' ? undefined : Number(text));
  const error = draft !== undefined && !parsed.success ? parsed.error.issues[0]?.message : undefined;
  const changed = parsed.success && parsed.data !== stored;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!parsed.success || !changed) return;
    update.mutate({ riskHistoryDays: parsed.data }, { onSuccess: () => setDraft(undefined) });
  };

  return (
    <section className="card" aria-labelledby="risk-history-title">
      <h2 id="risk-history-title">Risk history</h2>
      <form className="form" onSubmit={submit} noValidate aria-label="Risk history">
        <TextField
          label="Keep risk history for (days)"
          inputMode="numeric"
          value={text}
          disabled={!settings.data}
          error={error}
          onChange={(e) => setDraft(e.target.value)}
          hint="Score changes and per-cycle band counts older than this are deleted after each poll. The newest poll of every connector is always kept."
        />
        <div className="settings-actions">
          <button type="submit" className="button button-primary" disabled={!changed || update.isPending}>
            <Save size={14} aria-hidden="true" />
            Save
          </button>
        </div>
      </form>
    </section>
  );
}
