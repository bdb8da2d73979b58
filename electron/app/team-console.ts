/**
 * Settings → Team (issue 25.1, C-84, C-85): the team's PostgreSQL this console joins — server,
 * database, user and certificate trust in the settings, the password in the vault bound to all of
 * them (store/bound-secret.ts: a change of server, user or trust drops it) — and the switch between
 * the desk's own services and the team's (team-world.ts). A join tests first (password, role,
 * schema versions) and switches only when everything passed; leaving switches back to the desk's
 * stores, which nothing touched meanwhile. A console joined when the app starts joins again in the
 * background: until the database answers, the team's views say it cannot be reached.
 */
import { z } from 'zod';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { TlsTrust } from '../../shared/model/profile';
import { TeamRole, type TeamCheck, type TeamInput, type TeamView } from '../../shared/model/team';
import { ALARM_PG_STEPS } from '../alarms/store/pg-alarm-schema';
import { FLEET_MIGRATIONS, FLEET_STORE } from '../edr/fleet/fleet-schema';
import { EDR_PG_STEPS } from '../edr/store/edr-pg-schema';
import { registerSecret, type Logger } from '../log';
import { resolveTrust, trustKey } from '../net/trust-binding';
import { normalizeFingerprint } from '../net/tls-options';
import { ACTIVITY_PG_STEPS } from '../store/activity-pg';
import { getBoundSecret, secretBinding, setBoundSecret } from '../store/bound-secret';
import type { PgPool } from '../store/postgres';
import { checkTeamDatabase, openTeamPool, probePostgresCertificate, teamConnectError, warmPool, type TeamEndpoint, type TeamTrust } from '../store/team-postgres';
import type { CertificateInfo } from '../../shared/model/profile';
import type { SettingsBackend, Vault } from './ports';
import type { TeamWorld } from './team-world';

const KEY = 'team';
/** The team pool's connections opened at a join, before the views read (of its 6: C-103). */
const TEAM_WARM_CONNECTIONS = 4;
const SECRET = 'team:password';

const StoredTeam = z.object({
  host: z.string(),
  port: z.number(),
  database: z.string(),
  user: z.string(),
  tls: z.union([z.object({ mode: z.literal('off') }), TlsTrust]),
  joined: z.boolean(),
  joinedAt: z.string().optional(),
  role: TeamRole.optional(),
});
type StoredTeam = z.infer<typeof StoredTeam>;

/** The stores a console reads and the schema version this Northbound knows of each. */
export const TEAM_STORES: ReadonlyArray<readonly [string, number]> = [
  ['activity', ACTIVITY_PG_STEPS.length],
  ['edr', EDR_PG_STEPS.length],
  ['alarms', ALARM_PG_STEPS.length],
  [FLEET_STORE, FLEET_MIGRATIONS.length],
];

const trustKeyOf = (t: TeamTrust) => (t.mode === 'off' ? 'off' : trustKey(t));
/** Where the password may be sent: server, database, user and trust. */
const bindingOf = (t: Pick<StoredTeam, 'host' | 'port' | 'database' | 'user' | 'tls'>) => secretBinding(['team', t.host, t.port, t.database, t.user, trustKeyOf(t.tls)]);

export const readOnlyReason = (role: TeamRole | undefined): string | null =>
  role === 'northbound_console' ? 'Your database role northbound_console may not change connectors: a member of northbound_admin registers them for the team.' : null;

export interface TeamConsoleOptions {
  settings: SettingsBackend;
  vault: Vault;
  logger: Logger;
  /** Builds the team's services on a pool whose check passed. */
  openWorld(pool: PgPool, role: TeamRole): Promise<TeamWorld>;
  /** The desk's own polling, publication and alarm sources stop (join) or start again (leave). */
  pauseLocal(): Promise<void>;
  resumeLocal(): void;
  /** The views changed stores: the window reloads what it shows. */
  switched(joined: boolean): void;
}

export class TeamConsole {
  private world: TeamWorld | undefined;
  /** A background join (start, or a database that went away) in progress. */
  private rejoining: Promise<void> | undefined;
  private lastError: AppError | undefined;
  private closed = false;

  constructor(private readonly o: TeamConsoleOptions) {}

  private stored(): StoredTeam | undefined {
    const p = StoredTeam.safeParse(this.o.settings.get<unknown>(KEY));
    return p.success ? p.data : undefined;
  }

  /** Joined (the team's views answer), whether or not the database answers right now. */
  get joined(): boolean {
    return this.stored()?.joined ?? false;
  }

  get role(): TeamRole | undefined {
    return this.stored()?.role;
  }

  /** The team's services; a joined console whose database has not answered yet says so. */
  current(): TeamWorld {
    if (this.world) return this.world;
    const s = this.stored();
    throw (
      this.lastError ??
      new AppError(ErrorCodes.teamUnreachable, `Connecting to the team’s database at ${s?.host ?? '?'}:${s?.port ?? '?'}…`, 'Wait a moment; if it lasts, check Settings → Team, or leave the team to work on this desk’s data.')
    );
  }

  view(): Promise<TeamView> {
    return this.viewOf(this.stored());
  }

  private async viewOf(s: StoredTeam | undefined): Promise<TeamView> {
    if (!s) return { configured: false, joined: false, hasPassword: false, role: null, mayWriteConnectors: false, readOnlyReason: null };
    const tls: TeamView['tls'] =
      s.tls.mode === 'pinned' ? { mode: 'pinned', ...(s.tls.fingerprint256 ? { fingerprint256: s.tls.fingerprint256 } : {}) } : s.tls.mode === 'custom-ca' ? { mode: 'custom-ca', ...(s.tls.caName ? { caName: s.tls.caName } : {}) } : { mode: s.tls.mode };
    const role = s.joined ? (s.role ?? null) : null;
    return {
      configured: true,
      joined: s.joined,
      host: s.host,
      port: s.port,
      database: s.database,
      user: s.user,
      tls,
      hasPassword: (await this.password(s)) !== undefined,
      ...(s.joined && s.joinedAt ? { joinedAt: s.joinedAt } : {}),
      role,
      mayWriteConnectors: role === 'northbound_admin',
      readOnlyReason: s.joined ? readOnlyReason(s.role) : null,
    };
  }

  private password(s: StoredTeam): Promise<string | undefined> {
    return getBoundSecret(this.o.vault, SECRET, bindingOf(s));
  }

  /** What `input` asks for, resolved against what is stored (trust as a connection's: pins are never taken from a request). */
  private async resolve(input: TeamInput): Promise<{ next: StoredTeam; password: string | undefined; rebound: boolean }> {
    const prev = this.stored();
    const sameEndpoint = !!prev && prev.host === input.host && prev.port === input.port;
    const tls: TeamTrust = input.tls.mode === 'off' ? { mode: 'off' } : resolveTrust(input.tls, prev && prev.tls.mode !== 'off' ? prev.tls : undefined, sameEndpoint);
    if (tls.mode === 'pinned' && !tls.fingerprint256) {
      throw new AppError(ErrorCodes.tlsUntrusted, `No certificate of ${input.host}:${input.port} has been pinned for the team’s database yet.`, 'Inspect the server’s certificate, compare its fingerprint with the database owner’s and trust it; or choose the CA file that signed it.', {
        details: { reason: 'not-pinned', host: input.host },
      });
    }
    const next: StoredTeam = { host: input.host, port: input.port, database: input.database, user: input.user, tls, joined: prev?.joined ?? false, ...(prev?.joinedAt ? { joinedAt: prev.joinedAt } : {}), ...(prev?.role ? { role: prev.role } : {}) };
    const rebound = !!prev && bindingOf(prev) !== bindingOf(next);
    let password: string | undefined;
    if (input.password !== undefined) password = input.password === '' ? undefined : input.password;
    // Never in a log line, whatever fails below.
    if (password) registerSecret(password);
    else if (prev && !rebound) password = await this.password(prev);
    return { next, password, rebound };
  }

  private endpoint(s: StoredTeam): TeamEndpoint {
    return { host: s.host, port: s.port, database: s.database, user: s.user, tls: s.tls };
  }

  /** The certificate the server presents, to compare before pinning it (nothing is trusted or sent). */
  async inspect(host: string, port: number): Promise<CertificateInfo> {
    return (await probePostgresCertificate(host, port)).info;
  }

  /**
   * Pins the certificate the operator compared: saved with the server, database and user (not
   * joined); a stored password entered for another trust no longer goes with it. Refused when the
   * server now presents another certificate, and while joined (leave first: the running
   * connections were made with the trust in force).
   */
  async trust(req: { host: string; port: number; database: string; user: string; fingerprint256: string }): Promise<TeamView> {
    if (this.joined) throw new AppError(ErrorCodes.validation, 'The console is joined to a team: its server’s trust is not changed while joined.', 'Leave the team (below), pin the certificate, and join again.');
    const { info, pem } = await probePostgresCertificate(req.host, req.port);
    if (info.fingerprint256 !== normalizeFingerprint(req.fingerprint256)) {
      throw new AppError(ErrorCodes.tlsPinMismatch, `${req.host}:${req.port} now presents a different certificate from the one you compared. Nothing was trusted.`, 'Inspect the certificate again and compare the new fingerprint with the database owner’s before trusting it.', {
        details: { expected: req.fingerprint256, actual: info.fingerprint256, certificate: info },
      });
    }
    const saved: StoredTeam = { host: req.host, port: req.port, database: req.database, user: req.user, tls: { mode: 'pinned', fingerprint256: info.fingerprint256, certificatePem: pem }, joined: false };
    this.o.settings.set(KEY, saved);
    this.o.logger.info('team database certificate pinned', { host: req.host, port: req.port, fingerprint256: info.fingerprint256 });
    return this.viewOf(saved);
  }

  /** Connects as typed and checks password, role and schema; saves nothing. */
  async test(input: TeamInput): Promise<TeamCheck> {
    const { next, password } = await this.resolve(input);
    const ep = this.endpoint(next);
    const pool = openTeamPool(ep, password, { max: 1, applicationName: 'northbound console (test)' });
    try {
      return await checkTeamDatabase(pool, ep, TEAM_STORES);
    } finally {
      await pool.end().catch(() => undefined);
    }
  }

  /**
   * Tests, then saves the server and the password and switches the views to the team's stores.
   * Nothing is saved or switched when the test fails.
   */
  async join(input: TeamInput): Promise<TeamView> {
    const { next, password } = await this.resolve(input);
    const ep = this.endpoint(next);
    const pool = openTeamPool(ep, password, { max: 6, onIdleError: (e) => this.o.logger.warn('a connection to the team’s database closed', { error: e.message }) });
    let world: TeamWorld;
    let check: TeamCheck;
    try {
      check = await checkTeamDatabase(pool, ep, TEAM_STORES);
      world = await this.o.openWorld(pool, check.role).catch((e: unknown) => Promise.reject(teamConnectError(e, ep)));
    } catch (e) {
      await pool.end().catch(() => undefined);
      throw e;
    }
    const before = this.world;
    this.world = world;
    this.lastError = undefined;
    if (password === undefined) await this.o.vault.delete(SECRET);
    else await setBoundSecret(this.o.vault, SECRET, bindingOf(next), password);
    const wasJoined = this.joined;
    const saved: StoredTeam = { ...next, joined: true, joinedAt: new Date().toISOString(), role: check.role };
    this.o.settings.set(KEY, saved);
    await before?.close();
    if (!wasJoined) await this.o.pauseLocal();
    this.o.logger.info('joined the team', { host: next.host, port: next.port, database: next.database, user: next.user, role: check.role });
    void warmPool(pool, TEAM_WARM_CONNECTIONS);
    this.o.switched(true);
    return this.viewOf(saved);
  }

  /** Back to the desk's own stores (untouched while joined); the server and password stay saved. */
  async leave(): Promise<TeamView> {
    const s = this.stored();
    if (!s?.joined) return this.viewOf(s);
    const saved: StoredTeam = { host: s.host, port: s.port, database: s.database, user: s.user, tls: s.tls, joined: false };
    this.o.settings.set(KEY, saved);
    const world = this.world;
    this.world = undefined;
    this.lastError = undefined;
    await this.rejoining?.catch(() => undefined);
    await world?.close();
    // A background join that finished meanwhile is dropped too.
    const late = this.world as TeamWorld | undefined;
    this.world = undefined;
    await late?.close();
    this.o.resumeLocal();
    this.o.logger.info('left the team', { host: s.host, database: s.database });
    this.o.switched(false);
    return this.viewOf(saved);
  }

  /**
   * At start: a console that was joined stops its own polling and joins again in the background,
   * trying every few seconds (doubling to 60 s) while the database cannot be reached.
   */
  async start(): Promise<void> {
    const s = this.stored();
    if (!s?.joined) return;
    await this.o.pauseLocal();
    this.rejoining = this.rejoin(s);
  }

  private async rejoin(s: StoredTeam): Promise<void> {
    const ep = this.endpoint(s);
    for (let wait = 2_000; !this.closed && this.joined && !this.world; wait = Math.min(wait * 2, 60_000)) {
      const pool = openTeamPool(ep, await this.password(s), { max: 6, onIdleError: (e) => this.o.logger.warn('a connection to the team’s database closed', { error: e.message }) });
      try {
        const check = await checkTeamDatabase(pool, ep, TEAM_STORES);
        const world = await this.o.openWorld(pool, check.role);
        if (this.closed || !this.joined) {
          await world.close();
          return;
        }
        this.world = world;
        this.lastError = undefined;
        this.o.settings.set(KEY, { ...s, role: check.role });
        this.o.logger.info('joined the team again', { host: s.host, database: s.database, role: check.role });
        void warmPool(pool, TEAM_WARM_CONNECTIONS);
        this.o.switched(true);
        return;
      } catch (e) {
        await pool.end().catch(() => undefined);
        this.lastError = teamConnectError(e, ep);
        this.o.logger.warn('the team’s database could not be joined; trying again', { error: this.lastError.message, waitMs: wait });
      }
      const until = Date.now() + wait;
      while (!this.closed && this.joined && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 250).unref?.());
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.rejoining?.catch(() => undefined);
    await this.world?.close();
    this.world = undefined;
  }
}
