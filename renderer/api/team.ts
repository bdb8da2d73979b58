/** Settings → Team (issue 25.1): the team this console is joined to; join and leave reload every view (`team.changed`, event-sync.ts). */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TeamInput } from '../../shared/model/team';
import { useClient } from './ApiProvider';
import { keys } from './keys';

export function useTeam() {
  const client = useClient();
  return useQuery({ queryKey: keys.team, queryFn: () => client.invoke('team.get', {}) });
}

/** Whether the joined team's database answers (C-90): the banner on every page. Events keep it current (event-sync.ts). */
export function useTeamHealth() {
  const client = useClient();
  return useQuery({ queryKey: keys.teamHealth, queryFn: () => client.invoke('team.health', {}), staleTime: Infinity, meta: { silent: true } });
}

/** Connects as typed and says what it found (role, schema); saves nothing. Errors show in the form. */
export function useTestTeam() {
  const client = useClient();
  return useMutation({ mutationFn: (req: TeamInput) => client.invoke('team.test', req), meta: { silent: true } });
}

export function useJoinTeam() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: TeamInput) => client.invoke('team.join', req),
    onSuccess: (view) => {
      qc.setQueryData(keys.team, view);
      void qc.invalidateQueries();
    },
    meta: { silent: true },
  });
}

export function useLeaveTeam() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => client.invoke('team.leave', {}),
    onSuccess: (view) => {
      qc.setQueryData(keys.team, view);
      void qc.invalidateQueries();
    },
  });
}

/** The certificate the team's server presents (after PostgreSQL's SSLRequest), to compare before pinning. */
export function useInspectTeam() {
  const client = useClient();
  return useMutation({ mutationFn: (req: { host: string; port: number }) => client.invoke('team.inspect', req), meta: { silent: true } });
}

/** Pins the compared certificate for this server (saved with it, not joined). */
export function useTrustTeam() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: { host: string; port: number; database: string; user: string; fingerprint256: string }) => client.invoke('team.trust', req),
    onSuccess: (view) => qc.setQueryData(keys.team, view),
    meta: { silent: true },
  });
}
