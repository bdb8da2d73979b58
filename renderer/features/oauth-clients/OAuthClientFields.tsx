/** The sections of the OAuth client form: every field of OAuthClientBody (spec 2.1). */
import { useRef } from 'react';
import { Controller, useWatch, type UseFormReturn } from 'react-hook-form';
import type { OAuthClientBody } from '../../../shared/model/oauth-client';
import { ChoiceOption, SwitchField, TextAreaField, TextField } from '../../components/Field';
import { StringListEditor } from '../../components/StringListEditor';
import { formatDuration } from '../../components/format';
import { DateTimeField } from './DateTimeField';
import { grantMeta, type OAuthFormValues } from './oauth-form';

type Form = UseFormReturn<OAuthFormValues, unknown, OAuthClientBody>;

const secondsHint = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? `= ${formatDuration(v)}` : 'In seconds.');
const itemErrors = (e: unknown): (string | undefined)[] => (Array.isArray(e) ? e.map((x: { message?: string } | undefined) => x?.message) : []);

export function IdentityFields({ form }: { form: Form }) {
  const { register, formState } = form;
  const e = formState.errors;
  return (
    <fieldset className="form-section">
      <legend>Client</legend>
      <div className="form-grid">
        <TextField label="Name" autoComplete="off" spellCheck={false} {...register('name')} error={e.name?.message} hint="Letters, digits, dot, dash and underscore." />
        <SwitchField label="Enabled" {...register('enabled')} hint="A disabled client cannot obtain or use tokens." />
        <TextAreaField label="Description" rows={2} {...register('description')} error={e.description?.message} className="span-2" />
        <Controller
          control={form.control}
          name="expires_at"
          render={({ field, fieldState }) => <DateTimeField label="Client expires" value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={fieldState.error?.message} />}
        />
        <Controller
          control={form.control}
          name="client_secret_expires_at"
          render={({ field, fieldState }) => <DateTimeField label="Secret expires" value={field.value} onChange={field.onChange} onBlur={field.onBlur} error={fieldState.error?.message} />}
        />
      </div>
    </fieldset>
  );
}

export function TokenFields({ form }: { form: Form }) {
  const { register, formState, control } = form;
  const e = formState.errors;
  const [access, refresh] = useWatch({ control, name: ['access_token_validity', 'refresh_token_validity'] });
  return (
    <fieldset className="form-section">
      <legend>Tokens</legend>
      <div className="form-grid">
        <TextField label="Max access tokens" type="number" min={1} {...register('max_access_tokens', { valueAsNumber: true })} error={e.max_access_tokens?.message} hint="Live tokens of this client." />
        <TextField label="Max tokens per user" type="number" min={1} {...register('max_access_tokens_per_user', { valueAsNumber: true })} error={e.max_access_tokens_per_user?.message} />
        <TextField
          label="Access token validity (seconds)"
          type="number"
          min={60}
          {...register('access_token_validity', { valueAsNumber: true })}
          error={e.access_token_validity?.message}
          hint={secondsHint(access)}
        />
        <TextField
          label="Refresh token validity (seconds)"
          type="number"
          min={60}
          {...register('refresh_token_validity', { valueAsNumber: true })}
          error={e.refresh_token_validity?.message}
          hint={secondsHint(refresh)}
        />
      </div>
      <fieldset className="checkbox-group" aria-describedby={e.allowed_grant_types ? 'grant-types-msg' : undefined}>
        <legend>Allowed grant types</legend>
        {grantMeta.map((g) => (
          <ChoiceOption key={g.value} type="checkbox" value={g.value} label={g.label} labelClassName="mono" hint={g.hint} {...register('allowed_grant_types')} />
        ))}
        {e.allowed_grant_types?.message ? (
          <p className="field-error" id="grant-types-msg">
            {e.allowed_grant_types.message}
          </p>
        ) : null}
      </fieldset>
    </fieldset>
  );
}

export function SourceFields({ form }: { form: Form }) {
  const stash = useRef<string[]>([]);
  const { control, getValues, setValue, formState } = form;
  const listErrors = formState.errors.allowed_source_client_address?.ip_address_list;
  const sourceType = useWatch({ control, name: 'allowed_source_client_address.source_type' });
  return (
    <fieldset className="form-section">
      <legend>Allowed source addresses</legend>
      <Controller
        control={control}
        name="allowed_source_client_address.source_type"
        render={({ field }) => (
          <div className="radio-row" role="radiogroup" aria-label="Source type">
            {(
              [
                ['ANYWHERE', 'Anywhere', 'Any address may use this client.'],
                ['IP_ADDRESS_LIST', 'IP address list', 'Only the addresses and prefixes listed.'],
              ] as const
            ).map(([value, label, hint]) => (
              <ChoiceOption
                key={value}
                type="radio"
                name={field.name}
                value={value}
                label={label}
                hint={
                  <>
                    <code>{value}</code> · {hint}
                  </>
                }
                checked={field.value === value}
                onBlur={field.onBlur}
                onChange={() => {
                  const list = getValues('allowed_source_client_address.ip_address_list');
                  if (value === 'ANYWHERE') {
                    // ANYWHERE needs an empty list; keep the entries in case the operator switches back.
                    stash.current = list;
                    setValue('allowed_source_client_address.ip_address_list', []);
                  } else if (list.length === 0) {
                    setValue('allowed_source_client_address.ip_address_list', stash.current.length ? stash.current : ['']);
                  }
                  field.onChange(value);
                }}
              />
            ))}
          </div>
        )}
      />
      {sourceType === 'IP_ADDRESS_LIST' || (listErrors?.message ?? '') !== '' ? (
        <Controller
          control={control}
          name="allowed_source_client_address.ip_address_list"
          render={({ field }) => (
            <StringListEditor
              legend="Addresses"
              itemLabel="Address"
              addLabel="Add address"
              placeholder="192.0.2.10 or 10.1.0.0/16"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              itemErrors={itemErrors(listErrors)}
              error={listErrors?.message}
              hint="IPv4 or IPv6 addresses, optionally with a /prefix."
            />
          )}
        />
      ) : null}
    </fieldset>
  );
}

export function RegistrationFields({ form }: { form: Form }) {
  const { register, control, formState } = form;
  const e = formState.errors;
  return (
    <fieldset className="form-section">
      <legend>Registration metadata</legend>
      <div className="form-grid">
        <TextField label="Software ID" autoComplete="off" spellCheck={false} {...register('software_id')} error={e.software_id?.message} />
        <TextField label="Software version" autoComplete="off" spellCheck={false} {...register('software_version')} error={e.software_version?.message} />
        <Controller
          control={control}
          name="contacts"
          render={({ field }) => (
            <StringListEditor
              legend="Contacts"
              itemLabel="Contact"
              addLabel="Add contact"
              inputType="email"
              placeholder="noc@example.net"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              itemErrors={itemErrors(e.contacts)}
              error={e.contacts?.message}
            />
          )}
        />
        <Controller
          control={control}
          name="redirect_uris"
          render={({ field }) => (
            <StringListEditor
              legend="Redirect URIs"
              itemLabel="Redirect URI"
              addLabel="Add redirect URI"
              inputType="url"
              placeholder="https://app.example.net/callback"
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              itemErrors={itemErrors(e.redirect_uris)}
              error={e.redirect_uris?.message}
            />
          )}
        />
      </div>
    </fieldset>
  );
}
