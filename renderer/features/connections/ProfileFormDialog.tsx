/** Add or edit a connection profile. The dialog stays open with everything typed on any error. */
import { useMemo } from 'react';
import { useForm, useWatch, type FieldPath } from 'react-hook-form';
import { toast } from 'sonner';
import type { ProfileView } from '../../../shared/model/profile';
import { useSaveProfile, useProfiles } from '../../api/connections';
import { serverIssues } from '../../app/server-issues';
import { Dialog } from '../../components/Dialog';
import { useDiscardGuard } from '../../components/DiscardGuard';
import { SelectField, TextField } from '../../components/Field';
import { Spinner } from '../../components/Spinner';
import { movesSecrets, profileDefaults, profileResolver, toSaveRequest, type ProfileFormOutput, type ProfileFormValues } from './profile-form';
import { TlsTrustFields } from './TlsTrustFields';

export function ProfileFormDialog({ profile, onClose }: { profile?: ProfileView | undefined; onClose(): void }) {
  const save = useSaveProfile();
  // useForm takes the resolver of each render: the names of a list that loads later count too.
  const profiles = useProfiles().data;
  const resolver = useMemo(() => profileResolver(profile, profiles ?? []), [profile, profiles]);
  const form = useForm<ProfileFormValues, unknown, ProfileFormOutput>({
    resolver,
    defaultValues: profileDefaults(profile),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, handleSubmit, setError, formState, control } = form;
  const errors = formState.errors;
  // isDirty read here (in render) so the form tracks it; Escape, the close button and Cancel ask before dropping it.
  const dirty = formState.isDirty;
  const { requestClose, guard } = useDiscardGuard(() => dirty, onClose);
  const authMode = useWatch({ control, name: 'authMode' });
  const [host, basicPort, oauthPort, tls] = useWatch({ control, name: ['host', 'basicPort', 'oauthPort', 'tls'] });
  const dropsSecrets = movesSecrets(profile, { host, basicPort, oauthPort, tls });

  const onSubmit = async (values: ProfileFormOutput) => {
    try {
      const view = await save.mutateAsync(toSaveRequest(values, profile?.id));
      // Saving never switches the chosen connection (C-25); a window with none falls back to this one.
      toast.success(profile ? `Saved “${view.name}”.` : `Added “${view.name}”.`, {
        description: view.tls.mode === 'pinned' && !view.tls.fingerprint256 ? 'Next: Trust certificate, to compare and pin the node’s certificate.' : undefined,
      });
      onClose();
    } catch (e) {
      for (const issue of serverIssues(e)) setError(issue.path as FieldPath<ProfileFormValues>, { type: 'server', message: issue.message });
    }
  };

  return (
    <>
      <Dialog
        title={profile ? `Edit ${profile.name}` : 'Add connection'}
        description="A management node and how to sign in to it. Passwords and client secrets go to the vault and never come back to this window."
        onClose={requestClose}
        size="lg"
        testId="profile-form"
      >
        <form className="form" onSubmit={handleSubmit(onSubmit)} noValidate>
          <div className="form-grid form-grid-4">
            <TextField label="Name" autoComplete="off" {...register('name')} error={errors.name?.message} className="span-2" />
            <TextField label="Host" placeholder="mgmt.example.net or 10.0.0.5" autoComplete="off" spellCheck={false} {...register('host')} error={errors.host?.message} className="span-2" />
            <TextField label="Basic port" type="number" inputMode="numeric" {...register('basicPort', { valueAsNumber: true })} error={errors.basicPort?.message} hint="Default 9182" />
            <TextField label="OAuth port" type="number" inputMode="numeric" {...register('oauthPort', { valueAsNumber: true })} error={errors.oauthPort?.message} hint="Default 9183" />
            <SelectField label="Auth mode" {...register('authMode')} error={errors.authMode?.message} className="span-2">
              <option value="basic">Basic auth (user name and password)</option>
              <option value="oauth">OAuth (password grant with a client)</option>
            </SelectField>
            <TextField label="Username" autoComplete="off" spellCheck={false} {...register('username')} error={errors.username?.message} className="span-2" />
            <TextField
              label="Password"
              type="password"
              autoComplete="new-password"
              placeholder={profile?.hasPassword && !dropsSecrets ? '•••• stored' : ''}
              hint={profile?.hasPassword && !dropsSecrets ? 'Leave empty to keep the stored password.' : undefined}
              {...register('password')}
              error={errors.password?.message}
              className="span-2"
            />
            {authMode === 'oauth' ? (
              <>
                <TextField label="OAuth client ID" autoComplete="off" spellCheck={false} {...register('oauthClientId')} error={errors.oauthClientId?.message} className="span-2" />
                <TextField
                  label="OAuth client secret"
                  type="password"
                  autoComplete="new-password"
                  placeholder={profile?.hasClientSecret && !dropsSecrets ? '•••• stored' : ''}
                  hint={profile?.hasClientSecret && !dropsSecrets ? 'Leave empty to keep the stored secret.' : undefined}
                  {...register('clientSecret')}
                  error={errors.clientSecret?.message}
                  className="span-2"
                />
              </>
            ) : null}
          </div>
          <TlsTrustFields form={form} profile={profile} />
          <TextField
            label="API namespace (optional)"
            placeholder="Learned from the node"
            autoComplete="off"
            spellCheck={false}
            {...register('apiNamespace')}
            error={errors.apiNamespace?.message}
            hint="The prefix of the node's JSON keys (versanms on most releases). Leave empty: the console learns it from the node's answers."
          />
          {dropsSecrets ? (
            <p className="callout callout-warn" role="status" data-testid="secrets-dropped-notice">
              <strong>Saving removes the stored {profile?.hasPassword && profile.hasClientSecret ? 'password and client secret' : profile?.hasPassword ? 'password' : 'client secret'}.</strong>
              <span>They were entered for the previous host, ports and certificate trust, and are never sent anywhere else: enter them again above.</span>
            </p>
          ) : null}
          <div className="form-actions">
            <button type="button" className="button" onClick={requestClose}>
              Cancel
            </button>
            <button type="submit" className="button button-primary" disabled={save.isPending}>
              {save.isPending ? <Spinner /> : null}
              Save
            </button>
          </div>
        </form>
      </Dialog>
      {guard}
    </>
  );
}
