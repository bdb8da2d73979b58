/**
 * Guided onboarding of one device: Organization → Identity → Location → Device group → Review →
 * (onboard) → Deploy. Each step is checked with the shared DeviceRecord schema before Next; a
 * refusal from the node lands on its field, on that field's step, with everything typed kept.
 * Enter = Next; Escape asks before dropping what was typed.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import clsx from 'clsx';
import { ArrowLeft, ArrowRight, Check, Rocket, Send } from 'lucide-react';
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { useForm, type SubmitHandler } from 'react-hook-form';
import { DeviceRecord, type DeviceView } from '../../../shared/model/inventory';
import type { ProfileView } from '../../../shared/model/profile';
import { useDeployDevice, useDeviceLookup, useDeviceTop, useOnboardDevice } from '../../api/inventory';
import { Dialog } from '../../components/Dialog';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Spinner } from '../../components/Spinner';
import { useInventoryProfile } from '../../app/useInventoryProfile';
import { useDiscardGuard } from '../../components/DiscardGuard';
import { DeployStep } from './steps/DeployStep';
import { GroupStep } from './steps/GroupStep';
import { IdentityStep } from './steps/IdentityStep';
import { LocationStep } from './steps/LocationStep';
import { OrganizationStep } from './steps/OrganizationStep';
import { ReviewStep } from './steps/ReviewStep';
import { STEPS, emptyWizardValues, placeIssues, stepOfField, type WizardValues } from '../../components/wizard-model';

const REVIEW = 4;
const DEPLOY = 5;

/** Of `devices`, the one (another than `deviceName`) whose site ID is `siteId` as a number, by name; undefined when none. */
export function siteHolder(devices: readonly DeviceView[] | undefined, siteId: string, deviceName: string): string | undefined {
  const id = Number(siteId.trim());
  if (!devices || !Number.isFinite(id)) return undefined;
  return devices.find((d) => d.siteId !== null && Number(d.siteId) === id && d.deviceName !== deviceName.trim())?.deviceName;
}

export function OnboardingWizard({ profile, onClose }: { profile: ProfileView; onClose(): void }) {
  const { signedIn } = useInventoryProfile();
  const form = useForm<WizardValues, unknown, DeviceRecord>({ resolver: zodResolver(DeviceRecord), defaultValues: emptyWizardValues(), mode: 'onSubmit', reValidateMode: 'onChange' });
  const [step, setStep] = useState(0);
  const [saved, setSaved] = useState<DeviceView>();
  const [taskId, setTaskId] = useState<string>();
  const [failure, setFailure] = useState<{ message: string; hint?: string; other: string[] }>();
  const prefilled = useRef<string | undefined>(undefined);
  const onboard = useOnboardDevice();
  const deploy = useDeployDevice();
  // The saved device as the store has it (its deployment moves it), asked for by name alone (C-99).
  const stored = useDeviceTop(saved ? { profileId: profile.id, filter: { name: saved.deviceName }, limit: 1 } : undefined, true).data?.rows[0];
  const live = saved ? (stored?.deviceName === saved.deviceName ? stored : saved) : undefined;
  const lookup = useDeviceLookup();
  /** Who else holds the site ID typed, asked of the store (two devices at most: one may be this one). */
  const holderOf = async (siteId: string, deviceName: string) => {
    const id = Number(siteId.trim());
    if (!Number.isFinite(id)) return undefined;
    try {
      return siteHolder((await lookup({ profileId: profile.id, filter: { site: id }, limit: 2 })).rows, siteId, deviceName);
    } catch {
      return undefined; // the node refuses a taken site ID itself, at Onboard
    }
  };

  const submitRef = useRef<HTMLButtonElement>(null);
  // Steps without an input of their own: focus the main button, so Enter goes on.
  useLayoutEffect(() => {
    if (step === REVIEW) submitRef.current?.focus();
  }, [step]);

  const onPrefill = useCallback((siteId: string) => (prefilled.current = siteId), []);

  const typedSomething = () => {
    const v = form.getValues();
    const { locationInfo, siteId, ...rest } = v;
    return Object.values(rest).some((x) => x.trim() !== '') || Object.values(locationInfo).some((x) => x.trim() !== '') || (siteId.trim() !== '' && siteId !== prefilled.current);
  };

  const { requestClose, guard } = useDiscardGuard(() => !saved && typedSomething(), onClose);

  const goTo = (target: number, focus?: Parameters<typeof form.setFocus>[0]) => {
    setStep(target);
    if (focus) setTimeout(() => form.setFocus(focus, { shouldSelect: false }), 0);
  };

  const submit: SubmitHandler<DeviceRecord> = async (device) => {
    setFailure(undefined);
    try {
      const view = await onboard.mutateAsync({ profileId: profile.id, device });
      setSaved(view);
      setStep(DEPLOY);
    } catch (e) {
      const { fields, other } = placeIssues(e);
      for (const f of fields) form.setError(f.field, { type: 'server', message: f.message });
      const first = fields.map((f) => stepOfField(f.field)).sort((a, b) => a - b)[0];
      if (first !== undefined) goTo(first, fields.find((f) => stepOfField(f.field) === first)?.field);
      const err = e as { message?: string; hint?: string };
      if (!fields.length || other.length) setFailure({ message: err.message ?? 'The node refused the device.', ...(err.hint ? { hint: err.hint } : {}), other });
    }
  };

  const advancing = useRef(false);
  const next = async () => {
    if (advancing.current) return; // a second Enter or click while this one is checked
    advancing.current = true;
    try {
      if (step === REVIEW) return await form.handleSubmit(submit)();
      const fields = STEPS[step]!.fields;
      const valid = await form.trigger([...fields]);
      // A site ID another stored device of this node holds is refused here, at its field, not after Onboard (issue 22.11).
      const taken = valid && (fields as readonly string[]).includes('siteId') ? await holderOf(form.getValues('siteId'), form.getValues('deviceName')) : undefined;
      if (taken) {
        form.setError('siteId', { type: 'taken', message: `Site ID ${form.getValues('siteId').trim()} is already used by ${taken} on ${profile.name} (as last fetched). Use next free, or another number.` });
        form.setFocus('siteId');
      } else if (valid) setStep(step + 1);
      else {
        const bad = fields.find((f) => form.getFieldState(f).invalid);
        if (bad && bad !== 'orgName' && bad !== 'locationInfo.country') form.setFocus(bad);
      }
    } finally {
      advancing.current = false;
    }
  };

  // Asked first (ConfirmDialog); a failure is reported by the query client.
  const [askDeploy, setAskDeploy] = useState(false);
  const runDeploy = async () => {
    if (!saved) return;
    const task = await deploy.mutateAsync({ profileId: profile.id, deviceName: saved.deviceName });
    setTaskId(task.taskId);
  };

  const current = STEPS[step]!;
  const values = form.getValues();
  const failureBox = failure ? (
    <div className="callout callout-error" role="alert" data-testid="wizard-failure">
      <strong>{failure.message}</strong>
      {failure.hint ? <span>{failure.hint}</span> : null}
      {failure.other.length ? (
        <ul>
          {failure.other.map((o) => (
            <li key={o}>{o}</li>
          ))}
        </ul>
      ) : null}
    </div>
  ) : null;

  return (
    <>
      <Dialog title="Onboard a device" description={`On ${profile.name}. Step ${step + 1} of ${STEPS.length}: ${current.label}.`} onClose={requestClose} size="lg" testId="onboarding-wizard">
        {askDeploy && saved ? (
          <ConfirmDialog title={`Deploy ${saved.deviceName}?`} confirmLabel="Deploy" onConfirm={runDeploy} onClose={() => setAskDeploy(false)}>
            <p>
              {profile.name} deploys the record just saved to {saved.deviceName}. The task's progress shows here.
            </p>
          </ConfirmDialog>
        ) : null}
        <ol className="stepper" aria-label="Steps">
          {STEPS.map((s, i) => (
            <li key={s.id} className={clsx(i === step && 'current', i < step && 'done')} aria-current={i === step ? 'step' : undefined}>
              {i < step && step < DEPLOY ? (
                <button type="button" className="stepper-link" onClick={() => setStep(i)}>
                  <span className="stepper-num">
                    <Check size={11} aria-hidden="true" />
                  </span>
                  {s.label}
                </button>
              ) : (
                <span className="stepper-label">
                  <span className="stepper-num">{i < step ? <Check size={11} aria-hidden="true" /> : i + 1}</span>
                  {s.label}
                </span>
              )}
            </li>
          ))}
        </ol>
        <form
          className="form wizard-form"
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (step < DEPLOY) void next();
          }}
          onKeyDown={(e) => {
            // Enter = Next from anywhere in the step (not on a button or link, which act themselves).
            const t = e.target as HTMLElement;
            if (e.key !== 'Enter' || e.defaultPrevented || e.nativeEvent.isComposing || t.closest('button, a, textarea') || step >= DEPLOY) return;
            e.preventDefault();
            void next();
          }}
        >
          <div className="wizard-body" key={current.id}>
            {current.id === 'organization' ? <OrganizationStep form={form} profile={profile} signedIn={signedIn} /> : null}
            {current.id === 'identity' ? <IdentityStep form={form} profile={profile} signedIn={signedIn} onPrefill={onPrefill} /> : null}
            {current.id === 'location' ? <LocationStep form={form} profile={profile} /> : null}
            {current.id === 'group' ? <GroupStep form={form} profile={profile} /> : null}
            {current.id === 'review' ? <ReviewStep values={values} onEdit={(i) => setStep(i)} failure={failureBox} /> : null}
            {current.id === 'deploy' && live ? <DeployStep profile={profile} device={live} taskId={taskId} /> : null}
          </div>
          <div className="form-actions wizard-actions">
            {step < DEPLOY ? (
              <>
                <button type="button" className="button" onClick={requestClose}>
                  Cancel
                </button>
                <span className="wizard-spacer" />
                {step > 0 ? (
                  <button type="button" className="button" onClick={() => setStep(step - 1)}>
                    <ArrowLeft size={14} aria-hidden="true" />
                    Back
                  </button>
                ) : null}
                <button type="submit" className="button button-primary" disabled={onboard.isPending} ref={submitRef}>
                  {step === REVIEW ? onboard.isPending ? <Spinner /> : <Send size={14} aria-hidden="true" /> : null}
                  {step === REVIEW ? 'Onboard' : 'Next'}
                  {step < REVIEW ? <ArrowRight size={14} aria-hidden="true" /> : null}
                </button>
              </>
            ) : (
              <>
                <span className="wizard-spacer" />
                <button type="button" className={taskId ? 'button button-primary' : 'button'} onClick={onClose}>
                  {taskId ? 'Done' : 'Close'}
                </button>
                {!taskId || live?.deploymentStatus === 'failed' ? (
                  <button type="button" className="button button-primary" onClick={() => setAskDeploy(true)} disabled={deploy.isPending || !signedIn || live?.deploymentStatus === 'deploying'}>
                    {deploy.isPending ? <Spinner /> : <Rocket size={14} aria-hidden="true" />}
                    {taskId ? 'Retry deployment…' : 'Deploy now…'}
                  </button>
                ) : null}
              </>
            )}
          </div>
        </form>
      </Dialog>
      {guard}
    </>
  );
}
