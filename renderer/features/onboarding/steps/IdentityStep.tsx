/** Step 2: device name, site ID (prefilled with the node's next free one) and serial number. */
import { Wand2 } from 'lucide-react';
import { useEffect } from 'react';
import { useNextSiteId } from '../../../api/inventory';
import { TextField } from '../../../components/Field';
import { Spinner } from '../../../components/Spinner';
import type { StepProps } from './types';

export function IdentityStep({ form, profile, signedIn, onPrefill }: StepProps & { signedIn: boolean; onPrefill(siteId: string): void }) {
  const { register, formState, setValue, getValues } = form;
  const errors = formState.errors;
  const next = useNextSiteId(profile.id, signedIn);
  const suggested = next.data?.siteId;

  useEffect(() => {
    if (suggested && !getValues('siteId')) {
      setValue('siteId', suggested);
      onPrefill(suggested);
    }
  }, [suggested, getValues, setValue, onPrefill]);

  const takeNextFree = async () => {
    const r = await next.refetch();
    if (r.data) setValue('siteId', r.data.siteId, { shouldValidate: true, shouldDirty: true });
  };

  const siteHint = !signedIn
    ? `Sign in to ${profile.name} to get the next free site ID.`
    : next.isError
      ? `The node did not say which site ID is free: ${next.error.message}`
      : suggested
        ? `The next free site ID on the node is ${suggested}.`
        : 'Asking the node for the next free site ID…';

  return (
    <div className="wizard-step form-grid">
      <TextField label="Device name" autoComplete="off" spellCheck={false} placeholder="e.g. branch-berlin-01" {...register('deviceName')} error={errors.deviceName?.message} hint="Letters, digits, dot, dash and underscore." className="span-2" autoFocus />
      <div className="field">
        <label htmlFor="wizard-site-id">Site ID</label>
        <div className="input-with-button">
          <input id="wizard-site-id" type="text" inputMode="numeric" autoComplete="off" aria-invalid={errors.siteId ? true : undefined} aria-describedby="wizard-site-id-msg" {...register('siteId')} />
          <button type="button" className="button" onClick={() => void takeNextFree()} disabled={!signedIn || next.isFetching} title="Ask the node for the lowest site ID no device uses">
            {next.isFetching ? <Spinner /> : <Wand2 size={14} aria-hidden="true" />}
            Use next free
          </button>
        </div>
        {errors.siteId ? (
          <p className="field-error" id="wizard-site-id-msg" data-testid="site-id-error">
            {errors.siteId.message}
          </p>
        ) : (
          <p className="field-hint" id="wizard-site-id-msg">
            {siteHint}
          </p>
        )}
      </div>
      <TextField label="Serial number" autoComplete="off" spellCheck={false} {...register('serialNumber')} error={errors.serialNumber?.message} />
    </div>
  );
}
