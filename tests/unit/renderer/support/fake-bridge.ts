/**
 * An in-memory Bridge that implements the contract: requests are validated with the
 * contract's schemas, handlers keep profiles, sessions and clients in memory, failures travel
 * as `{ ok: false, error }` exactly like main's router. Tests can override any channel (also
 * with raw, invalid answers) and emit events. Pure TS: the preview script bundles it for the
 * browser too.
 */
import { channels, isChannelName, type Bridge, type ChannelName, type DemoStatus, type EventName, type EventPayload, type ParsedRequestOf, type ResponseOf, type Settings, type ConnectorStatus } from '../../../../shared/contract';
import { AppError, ErrorCodes, type Result } from '../../../../shared/model/errors';
import type { OAuthClient } from '../../../../shared/model/oauth-client';
import type { CertificateInfo, ProfileView } from '../../../../shared/model/profile';
import type { SessionStatus } from '../../../../shared/model/session';
import { FakeConnectors } from './fake-connectors';
import { FakeInventory, type FakeInventoryOptions } from './fake-inventory';

export const FP_A = 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89';
export const FP_B = '11:22:33:44:55:66:77:88:99:00:AA:BB:CC:DD:EE:FF:11:22:33:44:55:66:77:88:99:00:AA:BB:CC:DD:EE:FF';

type Handler<C extends ChannelName> = (req: ParsedRequestOf<C>) => Promise<ResponseOf<C>> | ResponseOf<C>;
type RawOverride = (req: unknown) => unknown;

export interface FakeState {
  profiles: ProfileView[];
  sessions: Map<string, SessionStatus>;
  settings: Settings;
  clients: Map<string, OAuthClient[]>;
  demo: DemoStatus;
  /** The certificate every node presents (host/port filled in per profile). */
  presented: Omit<CertificateInfo, 'host' | 'port'>;
  mode: 'desktop' | 'browser';
  clientSeq: number;
}

export interface FakeOptions {
  profiles?: ProfileView[];
  sessions?: SessionStatus[];
  settings?: Settings;
  clients?: Record<string, OAuthClient[]>;
  connectors?: ConnectorStatus[];
  /** Stored devices, organizations, syslog servers per profile id (inventory.*, devices.*, onboarding.*, syslog.*). */
  inventory?: FakeInventoryOptions;
  /** Delay of demo.open, to see its progress. */
  demoDelayMs?: number;
  now?: () => number;
}

const iso = (t: number) => new Date(t).toISOString();

export function makeProfile(p: Partial<ProfileView> & { name: string }): ProfileView {
  const now = '2026-01-01T00:00:00.000Z';
  return {
    id: p.id ?? `p-${p.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`,
    host: 'mgmt.example.net',
    basicPort: 9182,
    oauthPort: 9183,
    authMode: 'basic',
    username: 'operator',
    tls: { mode: 'system' },
    hasPassword: true,
    hasClientSecret: false,
    demo: false,
    createdAt: now,
    updatedAt: now,
    ...p,
  };
}

export class FakeBridge implements Bridge {
  readonly calls: { channel: string; request: unknown }[] = [];
  readonly state: FakeState;
  /** connectors.* in memory; tests drive cycles with `connectors.progress()` / `finish()`. */
  readonly connectors: FakeConnectors;
  /** Inventory channels in memory; tests drive tasks and bulk jobs through it. */
  readonly inventory: FakeInventory;
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly overrides = new Map<string, RawOverride>();
  private readonly now: () => number;
  private readonly demoDelayMs: number;

  constructor(opts: FakeOptions = {}) {
    this.now = opts.now ?? (() => Date.now());
    this.demoDelayMs = opts.demoDelayMs ?? 0;
    this.connectors = new FakeConnectors(opts.connectors ?? [], (event, payload) => this.emit(event, payload), () => this.now());
    this.inventory = new FakeInventory(opts.inventory ?? {}, (event, payload) => this.emit(event, payload), () => this.now(), (id) => this.requireSignedIn(id));
    this.state = {
      profiles: [...(opts.profiles ?? [])],
      sessions: new Map((opts.sessions ?? []).map((s) => [s.profileId, s])),
      settings: opts.settings ?? { theme: 'system' },
      clients: new Map(Object.entries(opts.clients ?? {})),
      demo: { running: false },
      presented: {
        subject: 'CN=mgmt.example.net, O=Example Networks',
        issuer: 'CN=mgmt.example.net, O=Example Networks',
        validFrom: '2026-01-01T00:00:00.000Z',
        validTo: '2028-01-01T00:00:00.000Z',
        fingerprint256: FP_A,
        selfSigned: true,
        trustedBySystem: false,
        altNames: 'DNS:mgmt.example.net, IP Address:127.0.0.1',
      },
      mode: 'desktop',
      clientSeq: 0,
    };
  }

  /** Answer a channel with anything (bypassing the contract), e.g. an invalid response. */
  override(channel: ChannelName, fn: RawOverride): this {
    this.overrides.set(channel, fn);
    return this;
  }

  callsTo(channel: ChannelName): unknown[] {
    return this.calls.filter((c) => c.channel === channel).map((c) => c.request);
  }

  emit<E extends EventName>(event: E, payload: EventPayload<E>): void {
    for (const l of [...(this.listeners.get(event) ?? [])]) l(payload);
  }

  on(event: string, listener: (payload: unknown) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  listenerCount(event: EventName): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  async invoke(channel: string, request: unknown): Promise<unknown> {
    this.calls.push({ channel, request });
    const raw = this.overrides.get(channel);
    if (raw) return raw(request);
    if (!isChannelName(channel)) return { ok: false, error: { code: ErrorCodes.unknownChannel, message: `Unknown channel "${channel}".`, hint: 'Update the app.' } };
    const parsed = channels[channel].request.safeParse(request ?? {});
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
      return { ok: false, error: { code: ErrorCodes.validation, message: `The request is not valid. ${issues[0]?.path}: ${issues[0]?.message}`, hint: 'Correct the highlighted fields and try again.', details: { issues } } };
    }
    try {
      const handler = this.handlers[channel] as (r: unknown) => Promise<unknown> | unknown;
      const value = await handler(parsed.data);
      return { ok: true, value: channels[channel].response.parse(value) } satisfies Result<unknown>;
    } catch (e) {
      if (e instanceof AppError) return { ok: false, error: e.toShape() };
      return { ok: false, error: { code: ErrorCodes.internal, message: 'Something went wrong inside the app.', hint: 'Try again.' } };
    }
  }

  // ---- in-memory implementation of the contract ----

  profile(id: string): ProfileView {
    const p = this.state.profiles.find((x) => x.id === id);
    if (!p) throw new AppError(ErrorCodes.notFound, 'That connection no longer exists.', 'Pick another connection from the list.');
    return p;
  }

  certificateFor(p: ProfileView): CertificateInfo {
    return { ...this.state.presented, host: p.host, port: p.authMode === 'oauth' ? p.oauthPort : p.basicPort };
  }

  session(id: string): SessionStatus {
    const p = this.profile(id);
    return this.state.sessions.get(id) ?? { profileId: id, state: 'signed-out', authMode: p.authMode, username: p.username };
  }

  setSession(s: SessionStatus): SessionStatus {
    this.state.sessions.set(s.profileId, s);
    this.emit('session.changed', s);
    return s;
  }

  private readonly handlers: { [C in ChannelName]: Handler<C> } = {
    'app.info': () => ({
      name: 'Northbound',
      version: '0.1.0',
      mode: this.state.mode,
      firstRun: this.state.profiles.length === 0,
      demoRunning: this.state.demo.running,
      secretsPersist: true,
      secretStorage: 'Electron safeStorage (libsecret)',
    }),
    'settings.get': () => this.state.settings,
    'settings.update': (patch) => (this.state.settings = { ...this.state.settings, ...patch }),

    'profiles.list': () => this.state.profiles,
    'profiles.save': (input) => {
      const existing = input.id ? this.profile(input.id) : undefined;
      if (this.state.profiles.some((p) => p.name.toLowerCase() === input.name.toLowerCase() && p.id !== existing?.id)) {
        throw new AppError(ErrorCodes.validation, `A connection named "${input.name}" already exists.`, 'Choose another name.', {
          details: { issues: [{ path: 'name', message: 'This name is already used by another connection.' }] },
        });
      }
      const tls: ProfileView['tls'] =
        input.tls.mode === 'pinned' ? (existing?.tls.mode === 'pinned' && existing.host === input.host ? existing.tls : { mode: 'pinned' }) : input.tls.mode === 'custom-ca' ? { mode: 'custom-ca', ...(input.tls.caName ? { caName: input.tls.caName } : {}) } : { mode: 'system' };
      const view = makeProfile({
        ...(existing ?? { id: `p-${this.state.profiles.length + 1}-${input.name.toLowerCase().replace(/[^a-z0-9]+/g, '-')}` }),
        name: input.name,
        host: input.host,
        basicPort: input.basicPort,
        oauthPort: input.oauthPort,
        authMode: input.authMode,
        username: input.username,
        ...(input.oauthClientId ? { oauthClientId: input.oauthClientId } : {}),
        tls,
        hasPassword: input.password === undefined ? (existing?.hasPassword ?? false) : input.password !== '',
        hasClientSecret: input.clientSecret === undefined ? (existing?.hasClientSecret ?? false) : input.clientSecret !== '',
        updatedAt: iso(this.now()),
      });
      this.state.profiles = existing ? this.state.profiles.map((p) => (p.id === view.id ? view : p)) : [...this.state.profiles, view];
      this.emit('profiles.changed', { ids: [view.id] });
      return view;
    },
    'profiles.delete': ({ profileId }) => {
      const before = this.state.profiles.length;
      this.state.profiles = this.state.profiles.filter((p) => p.id !== profileId);
      this.state.sessions.delete(profileId);
      return { deleted: this.state.profiles.length < before };
    },
    'profiles.test': ({ profileId }) => {
      const p = this.profile(profileId);
      this.assertTrusted(p);
      return { latencyMs: 12, certificate: this.certificateFor(p), authenticated: p.hasPassword, detail: `TLS 1.3 · ${p.authMode === 'oauth' ? 'token endpoint answered' : 'basic auth accepted'}` };
    },

    'tls.inspect': ({ profileId }) => this.certificateFor(this.profile(profileId)),
    'tls.trust': ({ profileId, fingerprint256 }) => {
      const p = this.profile(profileId);
      const cert = this.certificateFor(p);
      if (cert.fingerprint256 !== fingerprint256.toUpperCase()) {
        throw new AppError(ErrorCodes.tlsPinMismatch, `${p.host} now presents a different certificate from the one you compared. Nothing was trusted.`, 'Inspect the certificate again and compare the new fingerprint with the node before trusting it.', {
          details: { expected: fingerprint256, actual: cert.fingerprint256, certificate: cert },
        });
      }
      const view: ProfileView = { ...p, tls: { mode: 'pinned', fingerprint256: cert.fingerprint256 } };
      this.state.profiles = this.state.profiles.map((x) => (x.id === p.id ? view : x));
      this.emit('profiles.changed', { ids: [p.id] });
      return view;
    },

    'session.list': () => this.state.profiles.map((p) => this.session(p.id)),
    'session.signIn': ({ profileId }) => {
      const p = this.profile(profileId);
      this.assertTrusted(p);
      return this.setSession({
        profileId,
        state: 'signed-in',
        authMode: p.authMode,
        username: p.username,
        signedInAt: iso(this.now()),
        ...(p.authMode === 'oauth' ? { accessTokenExpiresAt: iso(this.now() + 54 * 60_000 + 30_000), refreshTokenExpiresAt: iso(this.now() + 86_400_000) } : {}),
      });
    },
    'session.signOut': ({ profileId }) => {
      const p = this.profile(profileId);
      return this.setSession({ profileId, state: 'signed-out', authMode: p.authMode, username: p.username });
    },

    'oauthClients.list': ({ profileId }) => {
      this.profile(profileId);
      return this.state.clients.get(profileId) ?? [];
    },
    'oauthClients.create': ({ profileId, body }) => {
      this.profile(profileId);
      this.state.clientSeq += 1;
      const client: OAuthClient = { ...body, client_id: `cl-${String(this.state.clientSeq).padStart(4, '0')}-7f3a9c`, created_at: iso(this.now()), updated_at: iso(this.now()) };
      this.state.clients.set(profileId, [...(this.state.clients.get(profileId) ?? []), client]);
      return { client, clientSecret: `s3cr3t-${this.state.clientSeq}-Zx81qPw0LmN4` };
    },
    'oauthClients.update': ({ profileId, clientId, body }) => {
      const list = this.state.clients.get(profileId) ?? [];
      const old = list.find((c) => c.client_id === clientId);
      if (!old) throw new AppError('api.4015', 'The node does not know that client.', 'Check the client ID.');
      const client: OAuthClient = { ...old, ...body, updated_at: iso(this.now()) };
      this.state.clients.set(profileId, list.map((c) => (c.client_id === clientId ? client : c)));
      return client;
    },

    'connectors.list': () => this.connectors.list,
    'connectors.save': (input) => this.connectors.save(input),
    'connectors.delete': ({ connectorId }) => this.connectors.remove(connectorId),
    'connectors.setEnabled': ({ connectorId, enabled }) => this.connectors.setEnabled(connectorId, enabled),
    'connectors.test': ({ connectorId }) => this.connectors.test(connectorId),
    'connectors.pollNow': ({ connectorId }) => this.connectors.pollNow(connectorId),
    'connectors.cancel': ({ connectorId }) => this.connectors.cancel(connectorId),
    'connectors.importBulk': (req) => this.connectors.importBulk(req),

    'inventory.devices': ({ profileId }) => (this.profile(profileId), this.inventory.snapshotDevices(profileId)),
    'inventory.organizations': ({ profileId }) => (this.profile(profileId), this.inventory.snapshotOrganizations(profileId)),
    'inventory.refresh': (req) => this.inventory.refresh(req),
    'devices.get': ({ profileId, deviceName }) => this.inventory.get(profileId, deviceName),
    'devices.nextSiteId': ({ profileId }) => this.inventory.nextSiteId(profileId),
    'devices.onboard': (req) => this.inventory.onboard(req),
    'devices.deploy': (req) => this.inventory.deploy(req),
    'tasks.get': ({ profileId, taskId }) => this.inventory.getTask(profileId, taskId),
    'onboarding.start': (req) => this.inventory.startJob(req),
    'onboarding.cancel': ({ jobId }) => this.inventory.cancelJob(jobId),
    'onboarding.get': ({ jobId }) => this.inventory.getJob(jobId),
    'syslog.list': ({ profileId }) => this.inventory.syslogList(profileId),
    'syslog.create': (req) => this.inventory.syslogCreate(req),

    'demo.status': () => this.state.demo,
    'demo.open': async () => {
      if (this.demoDelayMs) await new Promise((r) => setTimeout(r, this.demoDelayMs));
      const pinned = { mode: 'pinned' as const, fingerprint256: this.state.presented.fingerprint256 };
      const oauth = makeProfile({ id: 'demo-oauth', name: 'Demo node (OAuth)', host: '127.0.0.1', oauthPort: 19183, basicPort: 19182, authMode: 'oauth', username: 'admin', oauthClientId: 'bootstrap-admin-4c1d', hasClientSecret: true, tls: pinned, demo: true });
      const basic = makeProfile({ id: 'demo-basic', name: 'Demo node (basic auth)', host: '127.0.0.1', oauthPort: 19183, basicPort: 19182, authMode: 'basic', username: 'operator', tls: pinned, demo: true });
      this.state.profiles = [...this.state.profiles.filter((p) => !p.demo), oauth, basic];
      this.emit('profiles.changed', { ids: [oauth.id, basic.id] });
      this.state.demo = { running: true, profileId: basic.id, oauthProfileId: oauth.id, mgmtBasicUrl: 'https://127.0.0.1:19182', mgmtOauthUrl: 'https://127.0.0.1:19183', fingerprint256: pinned.fingerprint256 };
      this.handlers['session.signIn']({ profileId: oauth.id });
      this.emit('demo.changed', this.state.demo);
      return this.state.demo;
    },
  };

  /** Node calls need a session, as in main. */
  requireSignedIn(profileId: string): void {
    const p = this.profile(profileId);
    if (this.session(profileId).state !== 'signed-in') {
      throw new AppError(ErrorCodes.notSignedIn, `Not signed in to ${p.name}.`, 'Sign in to the node first; the stored lists stay available meanwhile.');
    }
  }

  private assertTrusted(p: ProfileView): void {
    if (p.tls.mode !== 'pinned') return;
    const cert = this.certificateFor(p);
    if (!p.tls.fingerprint256) {
      throw new AppError(ErrorCodes.tlsUntrusted, `${p.host} presents a certificate that is not trusted yet.`, 'Compare its fingerprint with the node and trust it.', { details: { certificate: cert } });
    }
    if (p.tls.fingerprint256 !== cert.fingerprint256) {
      throw new AppError(ErrorCodes.tlsPinMismatch, `${p.host} presents a different certificate from the pinned one.`, 'Do not continue unless you know the certificate was replaced.', {
        details: { expected: p.tls.fingerprint256, actual: cert.fingerprint256, certificate: cert },
      });
    }
  }
}
