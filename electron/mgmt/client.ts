/**
 * The management node client (plain Node): one per connection profile. Basic auth talks to the
 * basic port with a Basic header; OAuth talks to the OAuth port with a bearer token from an
 * `OAuthSession`. Every failure is an AppError (see errors.ts and electron/net).
 */
import type { ConnectionTest } from '../../shared/contract';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { OAuthClient, OAuthClientBody } from '../../shared/model/oauth-client';
import type { AuthMode, CertificateInfo, TlsTrust } from '../../shared/model/profile';
import type { SessionStatus } from '../../shared/model/session';
import { registerSecret, silentLogger, type Logger } from '../log';
import { HttpClient } from '../net/http-client';
import { inspectCertificate } from '../net/probe';
import { runConnectionTest } from './connection-test';
import { errorFromResponse, readJsonResponse, type OAuthOperation } from './errors';
import { BasicSession, basicHeader } from './basic-session';
import { oauthProfileRequired, parseCreatedClient, parseUpdatedClient, validateClientBody, type CreatedClient } from './oauth-clients';
import { OAuthSession, type OAuthCredentials, type OAuthTransport } from './oauth-session';
import { pathSegment } from '../net/path-segment';
import { CREDENTIALS_REFUSED, ORGANIZATIONS_PATH, isOrganizationList, notAManagementNode } from './node-proof';

/** What the client needs of a profile (StoredProfile and ProfileView both fit). */
export interface MgmtProfile {
  id?: string;
  name?: string;
  host: string;
  basicPort: number;
  oauthPort: number;
  authMode: AuthMode;
  username: string;
  oauthClientId?: string | undefined;
  tls: TlsTrust | { mode: 'pinned'; fingerprint256?: string | undefined };
}

export interface SecretsProvider {
  getPassword(): Promise<string | undefined>;
  getClientSecret(): Promise<string | undefined>;
}

export interface MgmtClientOptions {
  profile: MgmtProfile;
  secrets: SecretsProvider;
  /** The pinned certificate (PEM) when the profile's trust is 'pinned' and its tls lacks it. */
  pinnedCertificatePem?: string;
  logger?: Logger;
  /** Clock for token expiry (epoch ms). */
  now?: () => number;
  onStatus?: (s: SessionStatus) => void;
  /** Per-request timeout; default 15 s. */
  timeoutMs?: number;
  /** Reads a presented certificate (connection test, trust errors); tests may replace it. */
  probe?: (host: string, port: number) => Promise<CertificateInfo>;
}

export interface RequestOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** Organizations list used to prove basic credentials (cheap, readable by every role). */
export const VERIFY_PATH = `${ORGANIZATIONS_PATH}?offset=0&limit=1`;

function resolveTrust(tls: MgmtProfile['tls'], pem: string | undefined): TlsTrust {
  if (tls.mode !== 'pinned') return tls;
  const certificatePem = ('certificatePem' in tls ? (tls.certificatePem as string | undefined) : undefined) ?? pem;
  return { mode: 'pinned', ...(tls.fingerprint256 ? { fingerprint256: tls.fingerprint256 } : {}), ...(certificatePem ? { certificatePem } : {}) };
}

export class MgmtClient {
  readonly profileId: string;
  private readonly http: HttpClient;
  private readonly basic: BasicSession | undefined;
  private readonly oauth: OAuthSession | undefined;
  private readonly logger: Logger;
  private readonly probe: (host: string, port: number) => Promise<CertificateInfo>;
  /** The ports that answered the organization list in its shape; only their answers' words are shown (node-proof.ts). */
  private readonly answeredAsNode = new Set<'basic' | 'oauth'>();

  constructor(private readonly o: MgmtClientOptions) {
    const p = o.profile;
    this.profileId = p.id ?? `${p.host}:${p.authMode === 'oauth' ? p.oauthPort : p.basicPort}`;
    this.logger = o.logger ?? silentLogger;
    this.probe = o.probe ?? ((host, port) => inspectCertificate(host, port, { timeoutMs: 5_000 }));
    this.http = new HttpClient({ tls: resolveTrust(p.tls, o.pinnedCertificatePem), timeoutMs: o.timeoutMs ?? 15_000, logger: this.logger.child('http'), probe: this.probe, resendOnReset: true });
    const common = { profileId: this.profileId, username: p.username, host: p.host, ...(o.now ? { now: o.now } : {}), ...(o.onStatus ? { onStatus: o.onStatus } : {}), logger: this.logger };
    if (p.authMode === 'basic') {
      this.basic = new BasicSession({ ...common, getPassword: () => this.password(), verify: (h) => this.verifyNode('basic', h) });
    } else {
      this.oauth = this.newOAuthSession(common);
    }
  }

  get authMode(): AuthMode {
    return this.o.profile.authMode;
  }

  /** A fresh OAuth session on this client's transport (the connection test uses a throwaway one). */
  private newOAuthSession(opts: { profileId: string; username: string; host: string; now?: () => number; onStatus?: (s: SessionStatus) => void; logger?: Logger }): OAuthSession {
    return new OAuthSession({ ...opts, transport: this.oauthTransport(), credentials: () => this.oauthCredentials() });
  }

  private oauthTransport(): OAuthTransport {
    return {
      post: (path, body, { bearer, operation }) => this.send('oauth', 'POST', path, body, bearer ? `Bearer ${bearer}` : undefined, operation),
    };
  }

  private async password(): Promise<string> {
    const pw = await this.o.secrets.getPassword();
    if (!pw) {
      throw new AppError(ErrorCodes.missingSecret, `No password is stored for ${this.o.profile.username} on this connection.`, 'Enter the password in the connection form.', { details: { secret: 'password' } });
    }
    registerSecret(pw);
    return pw;
  }

  private async oauthCredentials(): Promise<OAuthCredentials> {
    const clientId = this.o.profile.oauthClientId;
    if (!clientId) {
      throw new AppError(ErrorCodes.validation, 'This connection has no OAuth client ID.', 'Enter the client ID of an OAuth client of the node in the connection form.', {
        details: { issues: [{ path: 'oauthClientId', message: 'OAuth sign-in needs the client ID of an OAuth client on the node.' }] },
      });
    }
    const clientSecret = await this.o.secrets.getClientSecret();
    if (!clientSecret) {
      throw new AppError(ErrorCodes.missingSecret, `No client secret is stored for the OAuth client ${clientId}.`, 'Enter the client secret in the connection form.', { details: { secret: 'clientSecret' } });
    }
    registerSecret(clientSecret);
    return { clientId, clientSecret, username: this.o.profile.username, password: await this.password() };
  }

  private baseUrl(port: 'basic' | 'oauth'): string {
    const p = this.o.profile;
    const host = p.host.includes(':') && !p.host.startsWith('[') ? `[${p.host}]` : p.host;
    return `https://${host}:${port === 'basic' ? p.basicPort : p.oauthPort}`;
  }

  /**
   * One HTTP exchange: JSON in, parsed JSON (undefined for 204) or an AppError out. A refusal from
   * a port that has not answered as a management node is shown without its own words, unless the
   * same credentials then read the organization list there (`proving`: that one GET itself).
   */
  private async send(port: 'basic' | 'oauth', method: string, path: string, body: unknown, authorization: string | undefined, operation: OAuthOperation, opts: RequestOptions & { proving?: boolean } = {}): Promise<unknown> {
    const p = this.o.profile;
    const res = await this.http.request({
      method,
      url: `${this.baseUrl(port)}${path}`,
      // Spec 5: requests carry Content-Type and Accept application/json (the body sets its own).
      headers: { ...(authorization ? { authorization } : {}), ...(body === undefined && method !== 'GET' && method !== 'DELETE' ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { json: body } : {}),
      ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const bare = path.split('?')[0] ?? path;
    const ctx = { operation, host: p.host, port: port === 'basic' ? p.basicPort : p.oauthPort, method, path: bare };
    if ((res.status < 200 || res.status >= 300) && authorization && !opts.proving && !this.answeredAsNode.has(port)) {
      // Worth a proof only if the answer has words of its own and the credentials were not what it refused.
      const withheld = errorFromResponse(res, { ...ctx, withholdText: true });
      const full = errorFromResponse(res, ctx);
      const differs = withheld.message !== full.message || withheld.hint !== full.hint || JSON.stringify(withheld.details) !== JSON.stringify(full.details);
      if (differs && !CREDENTIALS_REFUSED.has(withheld.code)) await this.proveNode(port, authorization, opts.signal);
    }
    const json = readJsonResponse(res, { ...ctx, withholdText: !this.answeredAsNode.has(port) });
    if (method === 'GET' && bare === ORGANIZATIONS_PATH && isOrganizationList(json)) this.answeredAsNode.add(port);
    return json;
  }

  /** Reads the organization list with `authorization`; afterwards `answeredAsNode` says whether the port answered as a node. */
  private async proveNode(port: 'basic' | 'oauth', authorization: string, signal: AbortSignal | undefined): Promise<void> {
    try {
      await this.send(port, 'GET', VERIFY_PATH, undefined, authorization, 'use', { proving: true, ...(signal ? { signal } : {}) });
    } catch {
      // Not proven: the refusal is shown without the answer's words.
    }
  }

  /** GET the first organization: the node must answer, accept `authorization` and answer as a management node. */
  private async verifyNode(port: 'basic' | 'oauth', authorization: string): Promise<void> {
    const body = await this.send(port, 'GET', VERIFY_PATH, undefined, authorization, 'use', { proving: true });
    const p = this.o.profile;
    if (!isOrganizationList(body)) throw notAManagementNode({ host: p.host, port: port === 'basic' ? p.basicPort : p.oauthPort });
  }

  signIn(): Promise<SessionStatus> {
    return this.basic ? this.basic.signIn() : this.oauth!.signIn();
  }

  signOut(): Promise<SessionStatus> {
    return this.basic ? this.basic.signOut() : this.oauth!.signOut();
  }

  status(): SessionStatus {
    return this.basic ? this.basic.status() : this.oauth!.status();
  }

  /**
   * A call of the management node API as the signed-in user: basic port with the Basic header,
   * or OAuth port with the bearer token (refreshed as needed). `undefined` for 204 No Content.
   */
  request<T = unknown>(method: string, path: string, body?: unknown, opts: RequestOptions = {}): Promise<T | undefined> {
    if (!path.startsWith('/')) return Promise.reject(new AppError(ErrorCodes.internal, `API paths start with "/" (got ${path}).`, 'This is a bug in the console.'));
    if (this.basic) return this.basic.withAuth((h) => this.send('basic', method, path, body, h, 'use', opts)) as Promise<T | undefined>;
    if (path.startsWith('/api/')) return this.yangOnBasicPort<T>(method, path, body, opts);
    return this.oauth!.withToken((t) => this.send('oauth', method, path, body, `Bearer ${t}`, 'use', opts)) as Promise<T | undefined>;
  }

  /**
   * The YANG-derived APIs (/api/config, /api/operational) are served only on {base_url}, the
   * basic-auth port (spec 4.1; MN-28). An OAuth connection calls them there with Basic
   * authentication of the same user, whose password it keeps for the password grant anyway,
   * and only while its OAuth session is signed in (C-9).
   */
  private async yangOnBasicPort<T>(method: string, path: string, body: unknown, opts: RequestOptions): Promise<T | undefined> {
    await this.oauth!.accessToken(); // the session's own rules: not signed in, sign-in required (the token is not sent)
    const header = basicHeader(this.o.profile.username, await this.password());
    return (await this.send('basic', method, path, body, header, 'use', opts)) as T | undefined;
  }

  /** POST /auth/admin/clients (spec 4.3) with the session's bearer token. */
  async createOAuthClient(body: OAuthClientBody): Promise<CreatedClient> {
    if (!this.oauth) throw oauthProfileRequired();
    const valid = validateClientBody(body);
    const json = await this.oauth.withToken((t) => this.send('oauth', 'POST', '/auth/admin/clients', valid, `Bearer ${t}`, 'use'));
    const created = parseCreatedClient(json);
    this.logger.info('oauth client created', { profileId: this.profileId, clientId: created.client.client_id, name: created.client.name });
    return created;
  }

  /**
   * PUT /auth/admin/clients/<client_id> (spec 4.3) with the session's bearer token, or with the
   * client's own registration access token (MN-8, RFC 7592) when one is given.
   */
  async updateOAuthClient(clientId: string, body: OAuthClientBody, opts: { registrationAccessToken?: string } = {}): Promise<OAuthClient> {
    const valid = validateClientBody(body);
    const path = `/auth/admin/clients/${pathSegment(clientId, 'client ID')}`;
    const reg = opts.registrationAccessToken;
    if (reg) registerSecret(reg);
    if (!reg && !this.oauth) throw oauthProfileRequired();
    const json = reg
      ? await this.send('oauth', 'PUT', path, valid, `Bearer ${reg}`, 'use')
      : await this.oauth!.withToken((t) => this.send('oauth', 'PUT', path, valid, `Bearer ${t}`, 'use'), {
          targetMissing: (e) =>
            new AppError(ErrorCodes.notFound, `The node knows no OAuth client with the ID ${clientId.length > 64 ? `${clientId.slice(0, 64)}…` : clientId}.`, 'Check the client ID; clients created on the node’s web interface are listed there.', {
              details: { clientId: clientId.slice(0, 256) },
              cause: e,
            }),
        });
    const client = parseUpdatedClient(json);
    this.logger.info('oauth client updated', { profileId: this.profileId, clientId: client.client_id });
    return client;
  }

  /**
   * Connection test: the certificate presented on the port this profile uses, then one
   * authenticated read. Unreachable hosts and untrusted certificates throw (with the
   * certificate in `details`); rejected credentials answer `authenticated: false`.
   */
  test(): Promise<ConnectionTest> {
    const p = this.o.profile;
    const port = p.authMode === 'oauth' ? p.oauthPort : p.basicPort;
    return runConnectionTest({
      probe: () => this.probe(p.host, port),
      authenticate: async () => {
        if (this.basic) {
          await this.verifyNode('basic', basicHeader(p.username, await this.password()));
          return `The node accepted ${p.username} (basic authentication on port ${port}).`;
        }
        if (this.oauth!.status().state === 'signed-in') {
          await this.oauth!.withToken((t) => this.verifyNode('oauth', `Bearer ${t}`));
          return `The signed-in session of ${p.username} works (OAuth on port ${port}).`;
        }
        // Not signed in: a throwaway token, used once and revoked at once.
        const probeSession = this.newOAuthSession({ profileId: this.profileId, username: p.username, host: p.host, ...(this.o.now ? { now: this.o.now } : {}), logger: this.logger });
        await probeSession.signIn();
        try {
          await probeSession.withToken((t) => this.verifyNode('oauth', `Bearer ${t}`));
        } finally {
          await probeSession.signOut();
        }
        return `The node issued a token to ${p.username} through client ${p.oauthClientId ?? ''} (OAuth on port ${port}).`;
      },
    });
  }

  /** Closes the connections (does not revoke: call signOut first). */
  async close(): Promise<void> {
    await this.http.close();
  }
}
