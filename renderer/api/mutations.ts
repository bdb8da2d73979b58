/** Writes: one hook per channel. Failures are reported by the query client (toasts, trust dialogs). */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { RequestOf, Settings } from '../../shared/contract';
import type { SessionStatus } from '../../shared/model/session';
import type { ProfileView } from '../../shared/model/profile';
import { keys } from './keys';
import { useClient } from './ApiProvider';

export function upsertSession(qc: QueryClient, status: SessionStatus): void {
  qc.setQueryData<SessionStatus[]>(keys.sessions, (old) => {
    if (!old) return [status];
    return old.some((s) => s.profileId === status.profileId) ? old.map((s) => (s.profileId === status.profileId ? status : s)) : [...old, status];
  });
}

function upsertProfile(qc: QueryClient, view: ProfileView): void {
  qc.setQueryData<ProfileView[]>(keys.profiles, (old) => {
    if (!old) return old;
    return old.some((p) => p.id === view.id) ? old.map((p) => (p.id === view.id ? view : p)) : [...old, view];
  });
}

export function useSaveProfile() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: RequestOf<'profiles.save'>) => client.invoke('profiles.save', input),
    onSuccess: (view) => {
      upsertProfile(qc, view);
      void qc.invalidateQueries({ queryKey: keys.profiles });
      void qc.invalidateQueries({ queryKey: keys.sessions });
      void qc.invalidateQueries({ queryKey: keys.appInfo });
    },
  });
}

export function useDeleteProfile() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (profileId: string) => client.invoke('profiles.delete', { profileId }).then((r) => ({ ...r, profileId })),
    onSuccess: ({ profileId }) => {
      qc.setQueryData<ProfileView[]>(keys.profiles, (old) => old?.filter((p) => p.id !== profileId));
      qc.setQueryData<SessionStatus[]>(keys.sessions, (old) => old?.filter((s) => s.profileId !== profileId));
      void qc.invalidateQueries({ queryKey: keys.appInfo });
    },
  });
}

export function useTestProfile() {
  const client = useClient();
  return useMutation({ mutationFn: (profileId: string) => client.invoke('profiles.test', { profileId }) });
}

export function useSignIn() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (profileId: string) => client.invoke('session.signIn', { profileId }),
    onSuccess: (status) => upsertSession(qc, status),
    onError: () => void qc.invalidateQueries({ queryKey: keys.sessions }),
  });
}

export function useSignOut() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (profileId: string) => client.invoke('session.signOut', { profileId }),
    onSuccess: (status) => upsertSession(qc, status),
  });
}

export function useTrustCertificate() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'tls.trust'>) => client.invoke('tls.trust', req),
    onSuccess: (view) => {
      upsertProfile(qc, view);
      void qc.invalidateQueries({ queryKey: keys.sessions });
    },
  });
}

export function useCreateOAuthClient() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'oauthClients.create'>) => client.invoke('oauthClients.create', req),
    // The secret must not linger in the mutation cache once the dialog showed it.
    gcTime: 0,
    onSuccess: (_created, req) => void qc.invalidateQueries({ queryKey: keys.oauthClients(req.profileId) }),
  });
}

export function useUpdateOAuthClient() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'oauthClients.update'>) => client.invoke('oauthClients.update', req),
    onSuccess: (_client, req) => void qc.invalidateQueries({ queryKey: keys.oauthClients(req.profileId) }),
  });
}

export function useOpenDemo() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => client.invoke('demo.open', {}),
    onSuccess: (status) => {
      qc.setQueryData(keys.demo, status);
      void qc.invalidateQueries({ queryKey: keys.appInfo });
      void qc.invalidateQueries({ queryKey: keys.profiles });
      void qc.invalidateQueries({ queryKey: keys.sessions });
    },
  });
}

export function useUpdateSettings() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<Settings>) => client.invoke('settings.update', patch),
    onSuccess: (settings) => qc.setQueryData(keys.settings, settings),
  });
}
