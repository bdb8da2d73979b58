/** The Settings → Team form: its values, their checks as typed (the same schema main applies), and the team.test / team.join request. */
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';
import { TeamInput, type TeamView } from '../../../shared/model/team';

export const TeamForm = z
  .object({
    host: z.string(),
    port: z.string(),
    database: z.string(),
    user: z.string(),
    password: z.string(),
    tlsMode: z.enum(['off', 'system', 'custom-ca', 'pinned']),
    caName: z.string().optional(),
    caPem: z.string().optional(),
  })
  .superRefine((v, ctx) => {
    const r = TeamInput.safeParse(toTeamRequest(v));
    if (r.success) return;
    for (const issue of r.error.issues) {
      const path = issue.path[0] === 'tls' ? (issue.path[1] === 'caPem' ? 'caPem' : 'tlsMode') : String(issue.path[0] ?? 'host');
      ctx.addIssue({ code: 'custom', path: [path], message: issue.message });
    }
  });
export type TeamFormValues = z.input<typeof TeamForm>;
export const teamResolver = zodResolver(TeamForm) as Resolver<TeamFormValues, unknown, TeamFormValues>;

export function teamDefaults(view: TeamView | undefined): TeamFormValues {
  const tls = view?.tls;
  return {
    host: view?.host ?? '',
    port: String(view?.port ?? 5432),
    database: view?.database ?? 'northbound',
    user: view?.user ?? '',
    password: '',
    tlsMode: tls?.mode ?? 'system',
    ...(tls?.mode === 'custom-ca' && tls.caName ? { caName: tls.caName } : {}),
  };
}

/** An empty password box keeps the stored one (main sends it only to the server, user and trust it was entered for). */
export function toTeamRequest(v: TeamFormValues): z.input<typeof TeamInput> {
  // A pin is never sent: main uses the one `team.trust` saved for this server.
  const tls = v.tlsMode === 'custom-ca' ? { mode: 'custom-ca' as const, ...(v.caName ? { caName: v.caName } : {}), ...(v.caPem ? { caPem: v.caPem } : {}) } : { mode: v.tlsMode };
  return { host: v.host.trim(), port: v.port.trim() === '' ? Number.NaN : Number(v.port), database: v.database.trim(), user: v.user.trim(), ...(v.password ? { password: v.password } : {}), tls };
}

/** Whether the stored password goes with what is typed: the same server, database, user and trust (a new CA file is another trust). */
export function keepsPassword(view: TeamView | undefined, v: TeamFormValues): boolean {
  if (!view?.hasPassword || !view.tls) return false;
  const sameTls = view.tls.mode === v.tlsMode && !(v.tlsMode === 'custom-ca' && v.caPem);
  return view.host === v.host.trim() && String(view.port) === v.port.trim() && view.database === v.database.trim() && view.user === v.user.trim() && sameTls;
}
