/**
 * Joining a team (issue 25.1): the team's PostgreSQL as the operator types it on Settings → Team,
 * and what main answers of it. The password travels only in the write direction (team.test,
 * team.join); the window sees `hasPassword`, never the password.
 */
import { z } from 'zod';
import { TlsTrustInput } from './profile';

/** A host name or an IP address, as a connection's host. */
const Host = z
  .string()
  .trim()
  .min(1, 'Enter the database server’s host name or address.')
  .max(253, 'Keep the host within 253 characters.')
  .refine((v) => !/[\s/@?#]/.test(v), 'Enter only the host name or address (no scheme, user, path or spaces).');

/** An identifier PostgreSQL takes as it is (database, user). */
const Identifier = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(63, `PostgreSQL names are at most 63 characters; shorten the ${what}.`)
    .refine((v) => !/[\s\0]/.test(v), `The ${what} has no spaces.`);

/**
 * How the server's certificate is trusted: as a connection's (system CAs, a custom CA, a pinned
 * certificate), or `off`: no TLS, refused by main unless the host is this machine (127.0.0.1, ::1, localhost).
 */
export const TeamTlsInput = z.discriminatedUnion(
  'mode',
  [z.object({ mode: z.literal('off') }).strict(), ...TlsTrustInput.options],
  { error: 'Choose how the server’s certificate is trusted: system CAs, a custom CA file, a pinned certificate, or no TLS on this machine.' },
);
export type TeamTlsInput = z.infer<typeof TeamTlsInput>;

/** Where the team's database is and who connects: what a pin is saved with. */
export const TeamEndpointInput = z.object({
  host: Host,
  port: z.coerce.number({ error: 'The port is a number.' }).int('The port is a whole number.').min(1, 'The port is 1 to 65535.').max(65_535, 'The port is 1 to 65535.').default(5432),
  database: Identifier('database name'),
  user: Identifier('database user'),
});

export const TeamInput = z
  .object({
    ...TeamEndpointInput.shape,
    /** Absent: keep the stored one (if still bound to this server, user and trust); '' removes it. */
    password: z.string().max(1024, 'Keep the password within 1,024 characters.').optional(),
    tls: TeamTlsInput,
  })
  .strict();
export type TeamInput = z.infer<typeof TeamInput>;

/** The roles team init makes that a console may log in through (docs/team.md). */
export const TeamRole = z.enum(['northbound_console', 'northbound_admin']);
export type TeamRole = z.infer<typeof TeamRole>;

export const TeamTlsView = z.discriminatedUnion('mode', [
  z.object({ mode: z.literal('off') }),
  z.object({ mode: z.literal('system') }),
  z.object({ mode: z.literal('custom-ca'), caName: z.string().optional() }),
  z.object({ mode: z.literal('pinned'), fingerprint256: z.string().optional() }),
]);

/** What the database said when tested: who we are there, and each store's schema version. */
export const TeamCheck = z.object({
  role: TeamRole,
  /** Whether the role may register connectors and seal their secrets (northbound_admin). */
  mayWriteConnectors: z.boolean(),
  serverVersion: z.string(),
  stores: z.array(z.object({ store: z.string(), version: z.number().int(), expected: z.number().int() })),
  latencyMs: z.number(),
});
export type TeamCheck = z.infer<typeof TeamCheck>;

export const TeamView = z.object({
  /** A server is saved (joined or not). */
  configured: z.boolean(),
  joined: z.boolean(),
  host: z.string().optional(),
  port: z.number().optional(),
  database: z.string().optional(),
  user: z.string().optional(),
  tls: TeamTlsView.optional(),
  hasPassword: z.boolean(),
  joinedAt: z.string().optional(),
  /** The role found at the last join (null: not joined). */
  role: TeamRole.nullable(),
  mayWriteConnectors: z.boolean(),
  /** Why the role may not write connectors, in words the Connectors page shows (null when it may, or not joined). */
  readOnlyReason: z.string().nullable(),
});
export type TeamView = z.infer<typeof TeamView>;

/** A connector's claim as the fleet's workers wrote it (fleet_claims), on the Connectors page of a joined console. */
export const FleetClaimView = z.object({
  worker: z.string().nullable(),
  leaseUntil: z.string().nullable(),
  leaseLapsed: z.boolean(),
  dueAt: z.string().nullable(),
  lastWorker: z.string().nullable(),
  lastCycleId: z.number().nullable(),
  lastStatus: z.string().nullable(),
  lastFinishedAt: z.string().nullable(),
  lastError: z.string().nullable(),
});
export type FleetClaimView = z.infer<typeof FleetClaimView>;

/**
 * Why a joined console may not save a tenant's risk settings (the what-if's Save, C-93), in the words
 * the what-if shows; null when it may (an admin, or not joined: the desk's own).
 */
export function riskReadOnlyReason(view: Pick<TeamView, 'joined' | 'role'> | undefined): string | null {
  if (!view?.joined || view.role === 'northbound_admin') return null;
  return `Your database role ${view.role ?? 'northbound_console'} may not change risk settings: a member of northbound_admin saves them for the team. The what-if still shows what new settings would move.`;
}
