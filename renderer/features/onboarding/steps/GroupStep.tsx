/** Step 4: the device group: suggestions from the organization's stored devices, or any new name. */
import { useMemo, useRef } from 'react';
import { useWatch } from 'react-hook-form';
import { useInventoryDevices } from '../../../api/inventory';
import { TextField } from '../../../components/Field';
import type { StepProps } from './types';

export function GroupStep({ form, profile }: StepProps) {
  const devices = useInventoryDevices(profile.id);
  const [orgName, group] = useWatch({ control: form.control, name: ['orgName', 'deviceGroup'] });
  const suggestions = useMemo(() => {
    const counts = new Map<string, number>();
    for (const d of devices.data?.items ?? []) if (d.orgName === orgName && d.deviceGroup) counts.set(d.deviceGroup, (counts.get(d.deviceGroup) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 24);
  }, [devices.data, orgName]);
  const errors = form.formState.errors;
  const inputRef = useRef<HTMLInputElement | null>(null);
  const { ref, ...field } = form.register('deviceGroup');

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
        hint={suggestions.length ? `Groups ${orgName} already uses are below; a new name is fine too.` : `No stored device of ${orgName || 'this organization'} has a group yet; enter one.`}
        autoFocus
      />
      {suggestions.length ? (
        <div className="group-suggestions" role="group" aria-label="Suggested device groups">
          {suggestions.map(([g, n]) => (
            <button
              key={g}
              type="button"
              className={g === group ? 'suggestion chosen' : 'suggestion'}
              aria-pressed={g === group}
              onClick={() => {
                form.setValue('deviceGroup', g, { shouldDirty: true, shouldValidate: !!errors.deviceGroup });
                inputRef.current?.focus(); // so Enter goes on to Review
              }}
            >
              {g} <span className="muted">{n}</span>
            </button>
          ))}
        </div>
      ) : null}
    </div>
  );
}
