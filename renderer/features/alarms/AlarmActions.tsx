/**
 * Acknowledge and clear, on one alarm or a selection, round-tripping to the node (alarms.acknowledge,
 * alarms.clear; Zabbix's event.acknowledge does message and close in one action the same way).
 * Acknowledge opens on its note; clear goes through the project's ConfirmDialog, with a note too.
 * The node's answer comes back through the stream; a refusal (a viewer's account, the node down)
 * stays in the dialog in words, with what to do.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm, type Resolver } from 'react-hook-form';
import { toast } from 'sonner';
import { z } from 'zod';
import { AlarmNote, MAX_ALARMS_PER_ACTION, type AlarmActionResult } from '../../../shared/contract-alarms';
import { HANDLING_STATES, type AlarmView, type HandlingState } from '../../../shared/model/alarms';
import { AppError } from '../../../shared/model/errors';
import { netText } from '../../../shared/text';
import { useAcknowledgeAlarms, useClearAlarms } from '../../api/alarms';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { SelectField, TextAreaField } from '../../components/Field';
import { Spinner } from '../../components/Spinner';
import { alarmsText, HANDLING_LABEL } from './labels';

/** The alarms an action is for: their ids, and the rows the window read (named in the dialog). */
export interface ActionTarget {
  ids: readonly number[];
  rows: readonly AlarmView[];
}

const AckForm = z.object({ note: AlarmNote, state: z.enum(HANDLING_STATES) });
type AckValues = z.input<typeof AckForm>;
const resolver = zodResolver(AckForm) as Resolver<AckValues, unknown, z.output<typeof AckForm>>;

/** An alarm in words; each name from the node with its bidi controls shown (shared/text.ts). */
const alarmName = (a: AlarmView) => `${netText(a.type)} on ${netText(a.deviceName)} ${netText(a.object)}`;

function Targets({ target }: { target: ActionTarget }) {
  const shown = target.rows.slice(0, 5);
  if (target.ids.length === 1 && shown[0])
    return (
      <p className="alarm-targets">
        <bdi>{alarmName(shown[0])}</bdi>
      </p>
    );
  return (
    <ul className="alarm-targets">
      {shown.map((a) => (
        <li key={a.id}>
          <bdi>{alarmName(a)}</bdi>
        </li>
      ))}
      {target.ids.length > shown.length ? <li className="muted">and {alarmsText(target.ids.length - shown.length)} more</li> : null}
    </ul>
  );
}

function Refusal({ error }: { error: unknown }) {
  if (!error) return null;
  return (
    <div className="callout callout-error" role="alert" data-testid="alarm-action-error">
      <span>
        <strong>{error instanceof AppError ? error.message : 'The node did not answer.'}</strong>
        {error instanceof AppError && error.hint ? ` ${error.hint}` : null}
      </span>
    </div>
  );
}

/** Words for a result: how many the node changed, and those the console no longer had. */
function report(what: string, r: AlarmActionResult): void {
  const missing = r.missing.length ? ` ${alarmsText(r.missing.length)} no longer stored; nothing was sent for ${r.missing.length === 1 ? 'it' : 'them'}.` : '';
  toast.success(`${what} ${alarmsText(r.updated)} on the node.${missing}`);
}

export function AcknowledgeDialog({ profileId, target, onDone, onClose }: { profileId: string; target: ActionTarget; onDone(ids: readonly number[]): void; onClose(): void }) {
  const ack = useAcknowledgeAlarms();
  const form = useForm<AckValues, unknown, z.output<typeof AckForm>>({ resolver, defaultValues: { note: '', state: 'ack' }, reValidateMode: 'onChange' });
  const errors = form.formState.errors;
  const tooMany = target.ids.length > MAX_ALARMS_PER_ACTION;
  const submit = form.handleSubmit(async ({ note, state }) => {
    const r = await ack.mutateAsync({ profileId, ids: [...target.ids], note, state: state as HandlingState }).catch(() => undefined);
    if (!r) return;
    report(state === 'ack' ? 'Acknowledged' : `Marked ${HANDLING_LABEL[state as HandlingState]}:`, r);
    onDone(target.ids);
    onClose();
  });
  return (
    <Dialog
      title={target.ids.length === 1 ? 'Acknowledge alarm' : `Acknowledge ${alarmsText(target.ids.length)}`}
      description="The note and your name go to the node with the alarm's handling."
      onClose={onClose}
      testId="alarm-ack-dialog"
      footer={
        <>
          <button type="button" className="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" form="alarm-ack-form" className="button button-primary" disabled={ack.isPending || tooMany}>
            {ack.isPending ? <Spinner /> : null}
            Acknowledge
          </button>
        </>
      }
    >
      <form id="alarm-ack-form" className="form" onSubmit={(e) => void submit(e)} noValidate>
        <Targets target={target} />
        <TextAreaField label="Note" rows={3} {...form.register('note')} error={errors.note?.message} hint="What you found or are doing (up to 1,000 characters)." data-autofocus data-testid="alarm-ack-note" />
        <SelectField label="Mark as" {...form.register('state')} data-testid="alarm-ack-state">
          {HANDLING_STATES.filter((s) => s !== 'none').map((s) => (
            <option key={s} value={s}>
              {HANDLING_LABEL[s]}
            </option>
          ))}
        </SelectField>
        {tooMany ? <p className="field-error">Choose at most {MAX_ALARMS_PER_ACTION} alarms at a time.</p> : null}
        <Refusal error={ack.error} />
      </form>
    </Dialog>
  );
}

export function ClearDialog({ profileId, target, onDone, onClose }: { profileId: string; target: ActionTarget; onDone(ids: readonly number[]): void; onClose(): void }) {
  const clear = useClearAlarms();
  const form = useForm<{ note: string }, unknown, { note: string }>({ resolver: zodResolver(z.object({ note: AlarmNote })) as Resolver<{ note: string }, unknown, { note: string }>, defaultValues: { note: '' }, reValidateMode: 'onChange' });
  const errors = form.formState.errors;
  const tooMany = target.ids.length > MAX_ALARMS_PER_ACTION;
  // ConfirmDialog stays open while this rejects: the refusal is shown below the note.
  const confirm = () =>
    new Promise<void>((resolve, reject) => {
      void form.handleSubmit(
        async ({ note }) => {
          try {
            const r = await clear.mutateAsync({ profileId, ids: [...target.ids], note });
            report('Cleared', r);
            onDone(target.ids);
            resolve();
          } catch (e) {
            reject(e instanceof Error ? e : new Error(String(e)));
          }
        },
        () => reject(new Error('invalid note')),
      )();
    });
  return (
    <ConfirmDialog title={target.ids.length === 1 ? 'Clear alarm?' : `Clear ${alarmsText(target.ids.length)}?`} confirmLabel="Clear" tone="danger" onConfirm={tooMany ? () => Promise.reject(new Error('too many')) : confirm} onClose={onClose} testId="alarm-clear-dialog">
      <p>The node marks {target.ids.length === 1 ? 'it' : 'them'} cleared now, with your note; an alarm cleared already stays as it is.</p>
      <Targets target={target} />
      <TextAreaField label="Note" rows={2} {...form.register('note')} error={errors.note?.message} hint="Why it is cleared (optional, up to 1,000 characters)." data-testid="alarm-clear-note" />
      {tooMany ? <p className="field-error">Choose at most {MAX_ALARMS_PER_ACTION} alarms at a time.</p> : null}
      <Refusal error={clear.error} />
    </ConfirmDialog>
  );
}
