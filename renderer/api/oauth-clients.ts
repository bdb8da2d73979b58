/** A connection's OAuth clients on its node: the list, create (its secret shown once) and update. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOf } from '../../shared/contract';
import { useClient } from './ApiProvider';
import { keys } from './keys';

export function useOAuthClients(profileId: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.oauthClients(profileId ?? ''),
    queryFn: () => client.invoke('oauthClients.list', { profileId: profileId ?? '' }),
    enabled: !!profileId,
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
