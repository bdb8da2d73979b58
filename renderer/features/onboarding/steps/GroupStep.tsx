/**
 * Step 4: the device group. Offers the organization's groups on the node (C-57; else the groups
 * its stored devices use, with why), narrowed by what is typed; a new name is fine too, and is
 * said to be new.
 */
import { useMemo, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import { useDeviceGroups } from '../../../api/inventory';
import { TextField } from '../../../components/Field';
import { Spinner } from '../../../components/Spinner';
import type { StepProps } from './types';

/** Chips shown at once; typing narrows the rest. */
export const GROUPS_SHOWN = 24;

/** The groups matching what is typed (all when nothing is, or when it names one exactly), at most `GROUPS_SHOWN`. */
export function groupChoices(groups: readonly string[], typed: string): { shown: string[]; more: number } {
  const t = typed.trim().toLowerCase();
  const exact = groups.some((g) => g.toLowerCase() === t);
  const matching = t && !exact ? groups.filter((g) => g.toLowerCase().includes(t)) : groups;
  return { shown: matching.slice(0, GROUPS_SHOWN), more: Math.max(0, matching.length - GROUPS_SHOWN) };
}

export function GroupStep({ form, profile }: StepProps) {
  const [orgName, group] = useWatch({ control: form.control, name: ['orgName', 'deviceGroup'] });
  const query = useDeviceGroups(profile.id, orgName || undefined);
  const data = query.data;
  const names = useMemo(() => data?.groups.map((g) => g.name) ?? [], [data]);
  const counts = useMemo(() => new Map(data?.groups.map((g) => [g.name, g.devices]) ?? []), [data]);
  const { shown, more } = useMemo(() => groupChoices(names, group ?? ''), [names, group]);
  const errors = form.formState.errors;
  const inputRef = useRef<HTMLInputElement | null>(null);
  const { ref, ...field } = form.register('deviceGroup');
  const org = orgName || 'this organization';
  const typed = (group ?? '').trim();
  const isNew = data?.source === 'node' && typed !== '' && !names.some((n) => n.toLowerCase() === typed.toLowerCase());

  let hint: string;
  if (!data) hint = query.isPending ? `Reading the groups of ${org} from the node…` : 'Enter the device group.';
  else if (data.source === 'node') hint = names.length ? `Groups ${org} has on the node are below; a new name is fine too.` : `${org} has no device group on the node yet; enter one.`;
  else hint = `${data.note ?? 'The node did not list its groups.'} ${names.length ? `Below are the groups stored devices of ${org} use; a new name is fine too.` : `No stored device of ${org} has a group yet; enter one.`}`;

  return (
    <div className="wizard-step">
      <TextField
        label="Device group"
        autoComplete="off"
        {...field}
        ref={(el) => {
          ref(el);
          inputRef.current = el;
        }}
        error={errors.deviceGroup?.message}
        hint={hint}
        autoFocus
      />
      {query.isPending && orgName ? <Spinner label={`Reading the groups of ${org}`} /> : null}
      {isNew && !errors.deviceGroup ? (
        <p className="field-hint" data-testid="group-new">
          {typed} is not a group of {org} on the node yet; onboarding names it.
        </p>
      ) : null}
      {shown.length ? (
        <div className="group-suggestions" role="group" aria-label={data?.source === 'node' ? `Device groups of ${org} on the node` : `Device groups stored devices of ${org} use`} data-source={data?.source}>
          {shown.map((g) => {
            const n = counts.get(g) ?? 0;
            return (
              <button
                key={g}
                type="button"
                className={g === group ? 'suggestion chosen' : 'suggestion'}
                aria-pressed={g === group}
                title={n ? `${n} stored device${n === 1 ? '' : 's'} of ${org} in ${g}` : `No stored device of ${org} is in ${g} yet`}
                onClick={() => {
                  form.setValue('deviceGroup', g, { shouldDirty: true, shouldValidate: !!errors.deviceGroup });
                  inputRef.current?.focus(); // so Enter goes on to Review
                }}
              >
                {g} {n ? <span className="muted">{n}</span> : null}
              </button>
            );
          })}
          {more ? <span className="muted group-more">{more} more: type to narrow</span> : null}
        </div>
      ) : null}
    </div>
  );
}
