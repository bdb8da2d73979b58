/** Reads: one hook per channel. Events keep them fresh (see events.ts). */
import { useQuery } from '@tanstack/react-query';
import { keys } from './keys';
import { useClient } from './ApiProvider';

export function useAppInfo() {
  const client = useClient();
  return useQuery({ queryKey: keys.appInfo, queryFn: () => client.invoke('app.info', {}) });
}

export function useSettings() {
  const client = useClient();
  return useQuery({ queryKey: keys.settings, queryFn: () => client.invoke('settings.get', {}), staleTime: Infinity });
}

export function useProfiles() {
  const client = useClient();
  return useQuery({ queryKey: keys.profiles, queryFn: () => client.invoke('profiles.list', {}) });
}

export function useSessions() {
  const client = useClient();
  return useQuery({ queryKey: keys.sessions, queryFn: () => client.invoke('session.list', {}) });
}

export function useDemoStatus() {
  const client = useClient();
  return useQuery({ queryKey: keys.demo, queryFn: () => client.invoke('demo.status', {}) });
}

/** EDR connectors with status; `edr.progress` and `connectors.changed` keep it fresh. */
export function useConnectors() {
  const client = useClient();
  return useQuery({ queryKey: keys.connectors, queryFn: () => client.invoke('connectors.list', {}) });
}

export function useOAuthClients(profileId: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.oauthClients(profileId ?? ''),
    queryFn: () => client.invoke('oauthClients.list', { profileId: profileId ?? '' }),
    enabled: !!profileId,
  });
}

/** The certificate a node presents right now; never cached, shown inline by the trust dialog. */
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
