/** The Settings page's reads and writes: the UI settings, publication and the data folder. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Settings } from '../../shared/contract';
import type { PublicationUpdate } from '../../shared/model/settings';
import { useClient } from './ApiProvider';
import { keys } from './keys';

export function useSettings() {
  const client = useClient();
  return useQuery({ queryKey: keys.settings, queryFn: () => client.invoke('settings.get', {}), staleTime: Infinity });
}

export function useUpdateSettings() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (patch: Partial<Settings>) => client.invoke('settings.update', patch),
    onSuccess: (settings) => qc.setQueryData(keys.settings, settings),
  });
}

/** Where scores are published (the RabbitMQ address without its password, and what overrides it). */
export function usePublication() {
  const client = useClient();
  return useQuery({ queryKey: keys.publication, queryFn: () => client.invoke('publication.get', {}) });
}

export function useUpdatePublication() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: PublicationUpdate) => client.invoke('publication.update', req),
    onSuccess: (view) => qc.setQueryData(keys.publication, view),
    // Field errors show under the fields; the form handles them.
    meta: { silent: true },
  });
}

/** Desktop: main opens its own data folder in the file manager. */
export function useOpenDataDir() {
  const client = useClient();
  return useMutation({ mutationFn: () => client.invoke('app.openDataDir', {}) });
}

/** The desktop app's updates (issue 23.7): kept current by `updates.changed`. */
export function useUpdateStatus() {
  const client = useClient();
  return useQuery({ queryKey: keys.updates, queryFn: () => client.invoke('updates.status', {}), staleTime: Infinity });
}

/** Check, download or install: each answers the new status (install: whether the app restarts). */
export function useUpdateAction() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (step: 'check' | 'download' | 'install') => {
      if (step === 'install') {
        await client.invoke('updates.install', {});
        return undefined;
      }
      return client.invoke(step === 'check' ? 'updates.check' : 'updates.download', {});
    },
    onSuccess: (status) => {
      if (status) qc.setQueryData(keys.updates, status);
    },
  });
}
