/** Writes: one hook per channel. Failures are reported by the query client (toasts, trust dialogs). */
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ConnectorStatus, RequestOf, Settings } from '../../shared/contract';
import type { ConnectorView } from '../../shared/model/connector';
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

/** A saved or toggled connector keeps the status fields (running, cycles) the list had. */
function upsertConnector(qc: QueryClient, view: ConnectorView): void {
  qc.setQueryData<ConnectorStatus[]>(keys.connectors, (old) => {
    if (!old) return old;
    return old.some((c) => c.id === view.id) ? old.map((c) => (c.id === view.id ? { ...c, ...view } : c)) : [...old, { ...view, running: false }];
  });
}

export function useSaveConnector() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: RequestOf<'connectors.save'>) => client.invoke('connectors.save', input),
    onSuccess: (view) => {
      upsertConnector(qc, view);
      void qc.invalidateQueries({ queryKey: keys.connectors });
    },
  });
}

export function useDeleteConnector() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    // Requests, not bare ids: a bare string would be taken for a profile id by the error reporter.
    mutationFn: (req: RequestOf<'connectors.delete'>) => client.invoke('connectors.delete', req).then((r) => ({ ...r, connectorId: req.connectorId })),
    onSuccess: ({ connectorId }) => {
      qc.setQueryData<ConnectorStatus[]>(keys.connectors, (old) => old?.filter((c) => c.id !== connectorId));
      void qc.invalidateQueries({ queryKey: keys.connectors });
    },
  });
}

export function useSetConnectorEnabled() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'connectors.setEnabled'>) => client.invoke('connectors.setEnabled', req),
    onSuccess: (view) => {
      upsertConnector(qc, view);
      void qc.invalidateQueries({ queryKey: keys.connectors });
    },
    onError: () => void qc.invalidateQueries({ queryKey: keys.connectors }),
  });
}

export function useTestConnector() {
  const client = useClient();
  return useMutation({ mutationFn: (req: RequestOf<'connectors.test'>) => client.invoke('connectors.test', req) });
}

export function usePollConnectorNow() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'connectors.pollNow'>) => client.invoke('connectors.pollNow', req),
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.connectors }),
  });
}

export function useCancelConnectorPoll() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'connectors.cancel'>) => client.invoke('connectors.cancel', req),
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.connectors }),
  });
}

/** The bulk push; the dialog shows a failure of the whole document itself. */
export function useImportConnectors() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'connectors.importBulk'>) => client.invoke('connectors.importBulk', req),
    meta: { silent: true },
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.connectors }),
  });
}
