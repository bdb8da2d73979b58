/**
 * Permission diagnostics. A client-credentials token is issued per resource, so the five
 * permissions of spec §5.3 are read from two tokens: the WindowsDefenderATP one
 * (Machine.Read.All, Vulnerability.Read.All, Alert.Read.All in `roles`) and the Microsoft Cloud
 * App Security one (discovery.manage, discovery.read). Delegated permissions show up as `scp`
 * with empty `roles`. Token failures (AADSTS codes) are reported as they are.
 */
import { isAppError, type AppError } from '../../../shared/model/errors';
import { permissionsDelegatedError, permissionsMissingError } from './errors';
import type { JwtClaims, TokenProvider } from './token';
import { DEFENDER_RESOURCE, MCAS_RESOURCE, REQUIRED_PERMISSIONS, type ApiName, type EndpointClass, type RequiredPermission } from './types';

export interface PermissionCheck {
  name: string;
  api: ApiName;
  /** Present in the token's `roles` (an Application permission with consent). */
  granted: boolean;
  /** Present only in `scp` (added as Delegated). */
  delegated: boolean;
}

export interface DefenderDiagnosis {
  ok: boolean;
  permissions: PermissionCheck[];
  /** What to fix, most fundamental first; empty when ok. */
  problems: AppError[];
  /** What the Defender token says (no secret in it). */
  token?: { tenantId?: string; appId?: string; audience?: string; roles: string[]; scp: string[] };
}

const has = (list: readonly string[], name: string) => list.some((x) => x.toLowerCase() === name.toLowerCase());
const rolesOf = (c: JwtClaims | undefined) => (Array.isArray(c?.roles) ? c.roles.filter((r): r is string => typeof r === 'string') : []);
const scpOf = (c: JwtClaims | undefined) => (typeof c?.scp === 'string' ? c.scp.split(/\s+/).filter(Boolean) : []);

export function checkPermissions(claimsByResource: Record<string, JwtClaims | undefined>): PermissionCheck[] {
  return REQUIRED_PERMISSIONS.map((p) => {
    const claims = claimsByResource[p.resource];
    const granted = has(rolesOf(claims), p.name);
    return { name: p.name, api: p.api, granted, delegated: !granted && has(scpOf(claims), p.name) };
  });
}

/** Problems of a set of checks: Delegated ones first (they need removing), then the missing ones. */
export function permissionProblems(checks: readonly PermissionCheck[], clientId: string): AppError[] {
  const problems: AppError[] = [];
  const delegated = checks.filter((c) => c.delegated).map((c) => c.name);
  if (delegated.length) problems.push(permissionsDelegatedError(delegated, clientId));
  const missing = REQUIRED_PERMISSIONS.filter((p) => checks.some((c) => c.name === p.name && !c.granted && !c.delegated));
  if (missing.length) problems.push(permissionsMissingError(missing, clientId));
  return problems;
}

export async function diagnose(tokens: { defender: TokenProvider; mcas: TokenProvider }, clientId: string, signal?: AbortSignal): Promise<DefenderDiagnosis> {
  let defender: JwtClaims;
  try {
    defender = await tokens.defender.claims(signal);
  } catch (e) {
    if (isAppError(e) && e.code !== 'cancelled') return { ok: false, permissions: [], problems: [e] };
    throw e;
  }
  const problems: AppError[] = [];
  let mcas: JwtClaims | undefined;
  try {
    mcas = await tokens.mcas.claims(signal);
  } catch (e) {
    // E.g. AADSTS500011 when Defender for Cloud Apps is not provisioned: report it, and its permissions as missing.
    if (!isAppError(e) || e.code === 'cancelled') throw e;
    problems.push(e);
  }
  const permissions = checkPermissions({ [DEFENDER_RESOURCE]: defender, [MCAS_RESOURCE]: mcas });
  problems.unshift(...permissionProblems(permissions, clientId));
  return {
    ok: problems.length === 0,
    permissions,
    problems,
    token: {
      ...(typeof defender.tid === 'string' ? { tenantId: defender.tid } : {}),
      ...(typeof defender.appid === 'string' ? { appId: defender.appid } : {}),
      ...(typeof defender.aud === 'string' ? { audience: defender.aud } : {}),
      roles: rolesOf(defender),
      scp: scpOf(defender),
    },
  };
}

const NEEDED: Record<EndpointClass, string> = { machines: 'Machine.Read.All', vulnerabilities: 'Vulnerability.Read.All', bulk: 'Vulnerability.Read.All' };

/** Why the API answered 403 for this class, from the token's own claims; undefined when the token looks right. */
export function explainForbidden(claims: JwtClaims, cls: EndpointClass, clientId: string): AppError | undefined {
  const need = REQUIRED_PERMISSIONS.find((p) => p.name === NEEDED[cls]) as RequiredPermission;
  const roles = rolesOf(claims);
  if (has(roles, need.name) || (cls === 'machines' && has(roles, 'Machine.ReadWrite.All'))) return undefined;
  if (roles.length === 0 && scpOf(claims).length > 0) return permissionsDelegatedError(scpOf(claims), clientId);
  return permissionsMissingError([need], clientId);
}
