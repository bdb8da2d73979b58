/** A node's certificate: what it presents now (the trust dialog), and trusting it for a connection. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOf } from '../../shared/contract';
import { useClient } from './ApiProvider';
import { upsertProfile } from './connections';
import { keys } from './keys';

export function useTlsInspect(profileId: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.tlsInspect(profileId ?? ''),
    queryFn: () => client.invoke('tls.inspect', { profileId: profileId ?? '' }),
    enabled: !!profileId,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    meta: { silent: true },
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
