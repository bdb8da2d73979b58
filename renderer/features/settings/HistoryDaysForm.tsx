/**
 * How long a history is kept, in whole days (risk history EDR-H4, alarm history MN-AL11): checked
 * in the window with the schema main uses, saved when the operator presses Save (or Enter).
 */
import { Save } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { z } from 'zod';
import { useUpdateSettings, useSettings } from '../../api/settings';
import { TextField } from '../../components/Field';

export function HistoryDaysForm({ setting, schema, label, formLabel, hint }: { setting: 'riskHistoryDays' | 'alarmHistoryDays'; schema: z.ZodType<number>; label: string; formLabel: string; hint: string }) {
  const settings = useSettings();
  const update = useUpdateSettings();
  const stored = settings.data?.[setting];
  const [draft, setDraft] = useState<string | undefined>(undefined);
  const text = draft ?? (stored === undefined ? '' : String(stored));
  const parsed = schema.safeParse(text.trim() === '' ? undefined : Number(text));
  const error = draft !== undefined && !parsed.success ? parsed.error.issues[0]?.message : undefined;
  const changed = parsed.success && parsed.data !== stored;

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!parsed.success || !changed) return;
    update.mutate({ [setting]: parsed.data }, { onSuccess: () => setDraft(undefined) });
  };

  return (
    <form className="form" onSubmit={submit} noValidate aria-label={formLabel}>
      <TextField label={label} inputMode="numeric" value={text} disabled={!settings.data} error={error} onChange={(e) => setDraft(e.target.value)} hint={hint} />
      <div className="settings-actions">
        <button type="submit" className="button button-primary" disabled={!changed || update.isPending}>
          <Save size={14} aria-hidden="true" />
          Save
        </button>
      </div>
    </form>
  );
}
