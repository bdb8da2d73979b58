/**
 * Access tokens of the simulated Entra ID: JWTs (HS256 with a per-start key; the connector
 * reads but never verifies them) carrying aud, tid, appid and `roles` (Application permissions)
 * or `scp` with empty `roles` (Delegated permissions). Tokens can be revoked in bulk.
 */
import { createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** WindowsDefenderATP, the API of Machine/Vulnerability/Alert permissions. */
export const DEFENDER_AUDIENCE = 'https://api.securitycenter.microsoft.com';
export const DEFENDER_APP_ID = 'fc780465-2017-40d4-a0c5-307022471b92';
/** Microsoft Cloud App Security (Defender for Cloud Apps), the API of discovery.manage / discovery.read. */
export const MCAS_APP_ID = '05a65629-4c1b-48c1-a78b-804c4abdd4af';

export type Resource = 'defender' | 'mcas';

/** Resource identifiers a `scope=<id>/.default` (v2) or `resource=<id>` (v1) may name. */
const RESOURCE_IDS: Record<string, Resource> = {
  [DEFENDER_AUDIENCE]: 'defender',
  'https://api.security.microsoft.com': 'defender',
  'https://securitycenter.onmicrosoft.com/windowsatpservice': 'defender',
  [DEFENDER_APP_ID]: 'defender',
  [MCAS_APP_ID]: 'mcas',
};

export function resourceOf(identifier: string): { resource: Resource; audience: string } | undefined {
  const id = identifier.replace(/\/+$/, '');
  const resource = RESOURCE_IDS[id] ?? RESOURCE_IDS[id.toLowerCase()];
  if (!resource) return undefined;
  const audience = resource === 'mcas' ? MCAS_APP_ID : id.startsWith('https://') ? id : DEFENDER_AUDIENCE;
  return { resource, audience };
}

/** Which API a permission belongs to (discovery.* and the other MCAS scopes are lower case). */
export const permissionResource = (permission: string): Resource => (/^(discovery|investigation|settings)\./i.test(permission) ? 'mcas' : 'defender');

const b64url = (s: string | Buffer) => Buffer.from(s).toString('base64url');

export interface TokenClaims {
  aud: string;
  iss: string;
  iat: number;
  nbf: number;
  exp: number;
  appid: string;
  appidacr: '1';
  idtyp: 'app';
  oid: string;
  sub: string;
  tid: string;
  uti: string;
  ver: '1.0';
  roles: string[];
  scp?: string;
  app_displayname?: string;
}

export class TokenIssuer {
  private readonly key = randomBytes(32);
  /** uti → exp (seconds) of every token still able to be valid. */
  private readonly live = new Map<string, number>();
  private readonly revoked = new Set<string>();
  issued = 0;

  constructor(private readonly now: () => number) {}

  issue(claims: Omit<TokenClaims, 'iat' | 'nbf' | 'exp' | 'uti' | 'iss' | 'appidacr' | 'idtyp' | 'ver' | 'sub'>, lifetimeSec: number): string {
    const iat = Math.floor(this.now() / 1000);
    const uti = randomUUID().replace(/-/g, '').slice(0, 22);
    const payload: TokenClaims = { ...claims, iss: `https://sts.windows.net/${claims.tid}/`, iat, nbf: iat, exp: iat + lifetimeSec, appidacr: '1', idtyp: 'app', sub: claims.oid, uti, ver: '1.0' };
    const head = b64url(JSON.stringify({ typ: 'JWT', alg: 'HS256', kid: 'sim-key' }));
    const body = b64url(JSON.stringify(payload));
    const sig = createHmac('sha256', this.key).update(`${head}.${body}`).digest('base64url');
    for (const [id, exp] of this.live) if (exp * 1000 < this.now()) this.live.delete(id);
    this.live.set(uti, payload.exp);
    this.issued += 1;
    return `${head}.${body}.${sig}`;
  }

  /** Every token issued so far stops working. */
  revokeAll(): void {
    for (const uti of this.live.keys()) this.revoked.add(uti);
    this.live.clear();
  }

  /** The claims of a genuine, unexpired, unrevoked token; otherwise why not. */
  verify(token: string): { ok: true; claims: TokenClaims } | { ok: false; why: string } {
    const parts = token.split('.');
    if (parts.length !== 3) return { ok: false, why: 'The access token is not a JWT.' };
    const [head, body, sig] = parts as [string, string, string];
    const expected = createHmac('sha256', this.key).update(`${head}.${body}`).digest();
    const given = Buffer.from(sig, 'base64url');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, why: 'The access token signature is invalid.' };
    let claims: TokenClaims;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as TokenClaims;
    } catch {
      return { ok: false, why: 'The access token is malformed.' };
    }
    if (claims.exp * 1000 <= this.now()) return { ok: false, why: 'The access token has expired.' };
    if (this.revoked.has(claims.uti)) return { ok: false, why: 'The access token is no longer valid.' };
    return { ok: true, claims };
  }
}
