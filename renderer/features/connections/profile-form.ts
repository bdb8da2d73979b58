/** The add/edit form's values, and how they become a `profiles.save` request. */
import type { z } from 'zod';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { PROFILE_NAME_TAKEN, ProfileInput, profileNameTaken, type ProfileView } from '../../../shared/model/profile';

export type ProfileFormValues = z.input<typeof ProfileInput>;
export type ProfileFormOutput = z.output<typeof ProfileInput>;

export function profileDefaults(view?: ProfileView): ProfileFormValues {
  if (!view) {
    return { name: '', host: '', basicPort: 9182, oauthPort: 9183, authMode: 'basic', username: '', oauthClientId: '', apiNamespace: '', tls: { mode: 'system' }, password: '', clientSecret: '' };
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
    apiNamespace: view.apiNamespace ?? '',
    // A pin is set only by tls.trust; the form keeps the mode and main keeps the pin.
    // The stored CA stays unless a file is picked (no caPem sent).
    tls: view.tls.mode === 'custom-ca' ? { mode: 'custom-ca', ...(view.tls.caName ? { caName: view.tls.caName } : {}) } : { mode: view.tls.mode },
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

/**
 * True when saving these values moves the connection to another endpoint or trust, so main
 * drops its stored password and client secret (they are bound to what they were entered for).
 */
export function movesSecrets(view: ProfileView | undefined, values: Pick<ProfileFormValues, 'host' | 'basicPort' | 'oauthPort' | 'tls'>): boolean {
  if (!view || (!view.hasPassword && !view.hasClientSecret)) return false;
  const tls = values.tls;
  return (
    view.host !== String(values.host ?? '').trim() ||
    view.basicPort !== Number(values.basicPort) ||
    view.oauthPort !== Number(values.oauthPort) ||
    view.tls.mode !== tls?.mode ||
    (tls?.mode === 'custom-ca' && !!tls.caPem)
  );
}

const zod = zodResolver(ProfileInput) as Resolver<ProfileFormValues, unknown, ProfileFormOutput>;
const NO_CA = 'Choose the CA certificate file (PEM).';

/**
 * zodResolver(ProfileInput), plus the rules the schema cannot know, checked in the window as
 * main checks them: a custom CA needs a picked file unless the connection already has a CA
 * stored (then no file keeps it), and the name must not be another connection's (`profiles`,
 * the list the window shows).
 */
export function profileResolver(view: ProfileView | undefined, profiles: readonly ProfileView[]): Resolver<ProfileFormValues, unknown, ProfileFormOutput> {
  return async (values, context, options) => {
    // A CA file picked before choosing another mode is not part of that mode (the schema refuses extra keys).
    const tls = values.tls?.mode === 'custom-ca' || !values.tls ? values.tls : { mode: values.tls.mode };
    const result = await zod({ ...values, tls } as ProfileFormValues, context, options);
    const needsFile = values.tls?.mode === 'custom-ca' && !values.tls.caPem && view?.tls.mode !== 'custom-ca';
    const taken = !result.errors.name && profileNameTaken(profiles, String(values.name ?? ''), view?.id);
    if (!needsFile && !taken) return result;
    const errors = { ...result.errors } as Record<string, unknown>;
    if (needsFile) errors.tls = { ...(result.errors.tls ?? {}), caPem: { type: 'client', message: NO_CA } };
    if (taken) errors.name = { type: 'client', message: PROFILE_NAME_TAKEN };
    return { values: {}, errors: errors as FieldErrors<ProfileFormValues> };
  };
}
