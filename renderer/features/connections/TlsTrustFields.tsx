import { FileKey } from 'lucide-react';
import { useId, useState } from 'react';
import { useWatch, type UseFormReturn } from 'react-hook-form';
import type { ProfileView } from '../../../shared/model/profile';
import { readCaFile } from '../../components/ca-file';
import { ChoiceOption, FieldMessage } from '../../components/Field';
import { formatBytes } from '../../components/format';
import type { ProfileFormOutput, ProfileFormValues } from './profile-form';

const options = [
  { mode: 'system', label: 'System CAs', hint: 'The certificate must chain to a CA this computer trusts.' },
  { mode: 'custom-ca', label: 'Custom CA file', hint: 'A PEM file with your own CA certificate(s).' },
  { mode: 'pinned', label: 'Pin certificate (trust on first use)', hint: 'Compare the node’s SHA-256 fingerprint once, then accept only that certificate.' },
] as const;

/**
 * The window reads the CA file the operator picks and sends its PEM text: main never opens a
 * path that a request names. Editing a connection without picking a file keeps its CA.
 */
export function TlsTrustFields({ form, profile }: { form: UseFormReturn<ProfileFormValues, unknown, ProfileFormOutput>; profile?: ProfileView | undefined }) {
  const { register, formState, control, setValue, setError, clearErrors } = form;
  const mode = useWatch({ control, name: 'tls.mode' });
  const caName = useWatch({ control, name: 'tls.caName' });
  const [picked, setPicked] = useState<{ name: string; size: number } | undefined>();
  const fileId = useId();
  const errors = formState.errors.tls as { caPem?: { message?: string }; mode?: { message?: string } } | undefined;
  const pinned = profile?.tls.mode === 'pinned' ? profile.tls.fingerprint256 : undefined;
  const storedCa = profile?.tls.mode === 'custom-ca' ? (profile.tls.caName ?? 'the stored CA') : undefined;

  const pick = async (file: File | undefined) => {
    if (!file) return;
    setPicked({ name: file.name, size: file.size });
    const read = await readCaFile(file);
    if ('error' in read) {
      setValue('tls.caPem', undefined);
      setError('tls.caPem', { type: 'client', message: read.error });
      return;
    }
    clearErrors('tls.caPem');
    setValue('tls.caName', file.name, { shouldDirty: true });
    setValue('tls.caPem', read.pem, { shouldDirty: true, shouldValidate: formState.isSubmitted });
  };

  return (
    <fieldset className="radio-group">
      <legend>TLS trust</legend>
      <div className="radio-grid">
        {options.map((o) => (
          <ChoiceOption key={o.mode} type="radio" value={o.mode} label={o.label} hint={o.hint} {...register('tls.mode')} />
        ))}
      </div>
      {mode === 'custom-ca' ? (
        <div className="field">
          <label htmlFor={fileId}>CA certificate file (PEM)</label>
          <input
            id={fileId}
            type="file"
            accept=".pem,.crt,.cer,application/x-pem-file,application/x-x509-ca-cert,text/plain"
            aria-invalid={errors?.caPem ? true : undefined}
            aria-describedby={`${fileId}-msg`}
            onChange={(e) => void pick(e.target.files?.[0])}
          />
          <FieldMessage
            id={fileId}
            error={errors?.caPem?.message}
            hint={
              picked ? (
                <>
                  <FileKey size={12} aria-hidden="true" /> {picked.name}, {formatBytes(picked.size)}
                </>
              ) : storedCa ? (
                `Using ${caName || storedCa}. Choose a file only to replace it.`
              ) : (
                'The file is read by this window; its certificates are kept with the connection.'
              )
            }
          />
        </div>
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
