/** The connections (profiles to a management node) and their sessions: the lists, save, delete, test, sign in and out. `session.changed` and `profiles.changed` keep them fresh (event-sync.ts). */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { RequestOf } from '../../shared/contract';
import type { ProfileView } from '../../shared/model/profile';
import type { SessionStatus } from '../../shared/model/session';
import { useClient } from './ApiProvider';
import { keys } from './keys';

export function useProfiles() {
  const client = useClient();
  return useQuery({ queryKey: keys.profiles, queryFn: () => client.invoke('profiles.list', {}) });
}

export function useSessions() {
  const client = useClient();
  return useQuery({ queryKey: keys.sessions, queryFn: () => client.invoke('session.list', {}) });
}

export function upsertSession(qc: QueryClient, status: SessionStatus): void {
  qc.setQueryData<SessionStatus[]>(keys.sessions, (old) => {
    if (!old) return [status];
    return old.some((s) => s.profileId === status.profileId) ? old.map((s) => (s.profileId === status.profileId ? status : s)) : [...old, status];
  });
}

export function upsertProfile(qc: QueryClient, view: ProfileView): void {
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
