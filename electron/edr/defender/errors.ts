/**
 * Defender and Entra ID failures as AppErrors an operator can act on: each names what is wrong
 * and says where in the Microsoft Entra admin center (or Defender portal) to fix it.
 */
import { AppError } from '../../../shared/model/errors';
import { REQUIRED_PERMISSIONS, type RequiredPermission } from './types';

export const DefenderErrorCodes = {
  tenantNotFound: 'edr.defender.tenant_not_found',
  appNotFound: 'edr.defender.app_not_found',
  secretInvalid: 'edr.defender.secret_invalid',
  secretExpired: 'edr.defender.secret_expired',
  consentMissing: 'edr.defender.consent_missing',
  permissionsDelegated: 'edr.defender.permissions_delegated',
  permissionsMissing: 'edr.defender.permissions_missing',
  tokenRefused: 'edr.defender.token_refused',
  unauthorized: 'edr.defender.unauthorized',
  forbidden: 'edr.defender.forbidden',
  throttled: 'edr.defender.throttled',
  serverError: 'edr.defender.server_error',
  badRequest: 'edr.defender.bad_request',
  unexpectedResponse: 'edr.defender.unexpected_response',
  foreignNextLink: 'edr.defender.foreign_next_link',
} as const;

const APP_REGS = 'Microsoft Entra admin center > Identity > Applications > App registrations';

export interface AadstsBody {
  error?: string;
  error_description?: string;
  error_codes?: number[];
  trace_id?: string;
  correlation_id?: string;
}

export interface TokenContext {
  tenantId: string;
  clientId: string;
  status: number;
}

/** The AADSTS code of a token error body (error_codes[0], else the code in the description). */
export function aadstsCode(body: AadstsBody): number | undefined {
  const first = Array.isArray(body.error_codes) ? body.error_codes.find((c) => typeof c === 'number') : undefined;
  if (first !== undefined) return first;
  const m = /AADSTS(\d+)/.exec(body.error_description ?? '');
  return m ? Number(m[1]) : undefined;
}

/** The first line of the description, without the trace lines Entra appends. */
const firstLine = (d: string | undefined) => (d ?? '').split(/\r?\n/)[0]!.trim();

export function tokenError(body: AadstsBody, ctx: TokenContext): AppError {
  const code = aadstsCode(body);
  const details = {
    aadsts: code,
    error: body.error,
    status: ctx.status,
    tenantId: ctx.tenantId,
    clientId: ctx.clientId,
    ...(body.trace_id ? { traceId: body.trace_id } : {}),
    ...(body.correlation_id ? { correlationId: body.correlation_id } : {}),
  };
  const make = (c: string, message: string, hint: string) => new AppError(c, message, hint, { details, status: ctx.status });
  switch (code) {
    case 90002:
      return make(DefenderErrorCodes.tenantNotFound, `Microsoft Entra ID does not know the tenant ${ctx.tenantId} (AADSTS90002).`, 'Copy the Tenant ID from Microsoft Entra admin center > Identity > Overview (a GUID) of the tenant where Defender for Endpoint runs, and enter it in the connector.');
    case 700016:
      return make(DefenderErrorCodes.appNotFound, `No application with client ID ${ctx.clientId} is registered in tenant ${ctx.tenantId} (AADSTS700016).`, `Open ${APP_REGS} > All applications, select the connector's app and copy its Application (client) ID. The app must be registered in this tenant.`);
    case 7000215:
      return make(DefenderErrorCodes.secretInvalid, `The client secret of application ${ctx.clientId} is wrong (AADSTS7000215).`, `Enter the secret's Value, not its Secret ID. The value is shown only once: if it was not saved, create a new one in ${APP_REGS} > (the app) > Certificates & secrets > Client secrets > New client secret.`);
    case 7000222:
      return make(DefenderErrorCodes.secretExpired, `The client secret of application ${ctx.clientId} has expired (AADSTS7000222).`, `Create a new client secret in ${APP_REGS} > (the app) > Certificates & secrets > New client secret, enter its value in the connector, then delete the expired secret.`);
    case 65001:
      return make(DefenderErrorCodes.consentMissing, `Admin consent has not been granted for application ${ctx.clientId} (AADSTS65001), so Entra ID issues no token.`, `A Global Administrator must open ${APP_REGS} > (the app) > API permissions and select "Grant admin consent for" the tenant. Check that every permission then shows "Granted".`);
    default:
      return make(
        DefenderErrorCodes.tokenRefused,
        `Microsoft Entra ID refused the token request${code !== undefined ? ` (AADSTS${code})` : ''}: ${firstLine(body.error_description) || body.error || `HTTP ${ctx.status}`}`,
        'Check the Tenant ID, Client ID and client secret of the connector against the app registration in the Microsoft Entra admin center.',
      );
  }
}

const byApi = (perms: readonly RequiredPermission[]) => {
  const groups = new Map<string, string[]>();
  for (const p of perms) groups.set(p.api, [...(groups.get(p.api) ?? []), p.name]);
  return [...groups].map(([api, names]) => `${api} > Application permissions: ${names.join(', ')}`).join('; ');
};

export function permissionsMissingError(missing: readonly RequiredPermission[], clientId: string): AppError {
  const list = missing.map((p) => `${p.name} (${p.api}, to ${p.purpose})`).join(', ');
  return new AppError(
    DefenderErrorCodes.permissionsMissing,
    `The app registration ${clientId} lacks ${missing.length} of the ${REQUIRED_PERMISSIONS.length} required API permissions: ${list}.`,
    `In ${APP_REGS} > (the app) > API permissions > Add a permission > APIs my organization uses, add ${byApi(missing)}. Then select "Grant admin consent for" the tenant.`,
    { details: { missing: missing.map((p) => p.name) } },
  );
}

export function permissionsDelegatedError(delegated: readonly string[], clientId: string): AppError {
  const named = delegated.length ? delegated.join(', ') : 'the API permissions';
  return new AppError(
    DefenderErrorCodes.permissionsDelegated,
    `The app registration ${clientId} has ${named} as Delegated permissions; the connector signs in without a user and needs them as Application permissions (its token carries no roles).`,
    `In ${APP_REGS} > (the app) > API permissions, remove the Delegated entries and add them again as Application permissions (Add a permission > APIs my organization uses > WindowsDefenderATP or Microsoft Cloud App Security > Application permissions). Then select "Grant admin consent for" the tenant.`,
    { details: { delegated: [...delegated] } },
  );
}

export interface ApiErrorBody {
  error?: { code?: string; message?: string; target?: string };
}

export function apiError(status: number, body: ApiErrorBody | undefined, what: string): AppError {
  const e = body?.error ?? {};
  const vendor = e.code ? `${e.code}${e.message ? `: ${e.message}` : ''}` : `HTTP ${status}`;
  const details = { status, ...(e.code ? { vendorCode: e.code } : {}), ...(e.target ? { requestId: e.target } : {}) };
  if (status === 401) {
    return new AppError(DefenderErrorCodes.unauthorized, `Defender refused the access token while it ${what} (${vendor}), even after a new token.`, 'Check that the app registration is in the tenant that runs Defender for Endpoint and that the API address is right for its region.', { details, status });
  }
  if (status === 403) {
    return new AppError(DefenderErrorCodes.forbidden, `Defender refused access while it ${what} (${vendor}).`, 'Run the connector diagnosis: it names the missing API permissions. A missing Defender for Endpoint Plan 2 / Vulnerability Management license also causes this.', { details, status });
  }
  if (status === 429) {
    return new AppError(DefenderErrorCodes.throttled, `Defender kept throttling the connector while it ${what} (${vendor}).`, 'Another tool may share this app registration and its rate limits; give the connector its own app registration, or lengthen the poll interval.', { details, status });
  }
  if (status >= 500) {
    return new AppError(DefenderErrorCodes.serverError, `Defender failed while it ${what} (${vendor}), also after retries.`, 'This is a problem on the Defender side; the next poll tries again. Check the Microsoft 365 service health page if it persists.', { details, status });
  }
  return new AppError(DefenderErrorCodes.badRequest, `Defender refused the request while it ${what} (${vendor}).`, 'Check the API address of the connector (for example https://api.securitycenter.microsoft.com or a regional address).', { details, status });
}

export function unexpectedResponse(what: string, why: string, status?: number): AppError {
  return new AppError(DefenderErrorCodes.unexpectedResponse, `Defender sent an answer the connector cannot read while it ${what} (${why}).`, 'Check that the API address points to the Defender for Endpoint API; if it does, try again later.', {
    details: { why },
    ...(status !== undefined ? { status } : {}),
  });
}
