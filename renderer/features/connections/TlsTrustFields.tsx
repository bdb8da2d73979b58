import { useWatch, type UseFormReturn } from 'react-hook-form';
import type { ProfileView } from '../../../shared/model/profile';
import { ChoiceOption, TextField } from '../../components/Field';
import type { ProfileFormOutput, ProfileFormValues } from './profile-form';

const options = [
  { mode: 'system', label: 'System CAs', hint: 'The certificate must chain to a CA this computer trusts.' },
  { mode: 'custom-ca', label: 'Custom CA file', hint: 'A PEM file with your own CA certificate(s).' },
  { mode: 'pinned', label: 'Pin certificate (trust on first use)', hint: 'Compare the node’s SHA-256 fingerprint once, then accept only that certificate.' },
] as const;

export function TlsTrustFields({ form, profile }: { form: UseFormReturn<ProfileFormValues, unknown, ProfileFormOutput>; profile?: ProfileView | undefined }) {
  const { register, formState, control } = form;
  const mode = useWatch({ control, name: 'tls.mode' });
  const errors = formState.errors.tls as { caFile?: { message?: string }; mode?: { message?: string } } | undefined;
  const pinned = profile?.tls.mode === 'pinned' ? profile.tls.fingerprint256 : undefined;
  return (
    <fieldset className="radio-group">
      <legend>TLS trust</legend>
      <div className="radio-grid">
        {options.map((o) => (
          <ChoiceOption key={o.mode} type="radio" value={o.mode} label={o.label} hint={o.hint} {...register('tls.mode')} />
        ))}
      </div>
      {mode === 'custom-ca' ? (
        <TextField label="CA certificate file (PEM)" placeholder="/etc/ssl/mgmt-ca.pem" spellCheck={false} {...register('tls.caFile')} error={errors?.caFile?.message} />
      ) : null}
      {mode === 'pinned' ? (
        <p className="field-hint">
          {pinned ? (
            <>
              Pinned: <code className="mono">{pinned}</code>. It stays pinned while host and ports are unchanged.
            </>
          ) : (
            'After saving, use Trust certificate on the connection to compare the fingerprint and pin it.'
          )}
        </p>
      ) : null}
    </fieldset>
  );
}
