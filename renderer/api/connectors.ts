/** The EDR connectors: the list with each one's status, save, delete, enable, test, poll now, cancel and the bulk import. `edr.progress` and `connectors.changed` keep the list fresh (event-sync.ts). */
import { useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { ConnectorStatus, RequestOf } from '../../shared/contract';
import type { ConnectorView } from '../../shared/model/connector';
import { useClient } from './ApiProvider';
import { keys } from './keys';

export function useConnectors() {
  const client = useClient();
  return useQuery({ queryKey: keys.connectors, queryFn: () => client.invoke('connectors.list', {}) });
}

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

export function useImportConnectors() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'connectors.importBulk'>) => client.invoke('connectors.importBulk', req),
    meta: { silent: true },
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.connectors }),
  });
}
