/** The add/edit form's values, and how they become a `profiles.save` request. */
import type { z } from 'zod';
import type { ProfileInput, ProfileView } from '../../../shared/model/profile';

export type ProfileFormValues = z.input<typeof ProfileInput>;
export type ProfileFormOutput = z.output<typeof ProfileInput>;

export function profileDefaults(view?: ProfileView): ProfileFormValues {
  if (!view) {
    return { name: '', host: '', basicPort: 9182, oauthPort: 9183, authMode: 'basic', username: '', oauthClientId: '', tls: { mode: 'system' }, password: '', clientSecret: '' };
  }
  return {
    id: view.id,
    name: view.name,
    host: view.host,
    basicPort: view.basicPort,
    oauthPort: view.oauthPort,
    authMode: view.authMode,
    username: view.username,
    oauthClientId: view.oauthClientId ?? '',
    // A pin is set only by tls.trust; the form keeps the mode and main keeps the pin.
    tls: view.tls.mode === 'custom-ca' ? { mode: 'custom-ca', caFile: view.tls.caFile } : { mode: view.tls.mode },
    password: '',
    clientSecret: '',
  };
}

/** Write-only secrets: an empty box keeps what is stored, so it is not sent at all. */
export function toSaveRequest(values: ProfileFormOutput, id: string | undefined): ProfileFormValues {
  const { password, clientSecret, oauthClientId, id: _ignored, ...rest } = values;
  return {
    ...rest,
    ...(id ? { id } : {}),
    ...(oauthClientId ? { oauthClientId } : {}),
    ...(password ? { password } : {}),
    ...(clientSecret ? { clientSecret } : {}),
  };
}
