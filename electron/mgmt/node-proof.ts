/**
 * Whether an endpoint answered as a management node: its answer to the organization list
 * (`GET /mgmt/organization/orgs`) in the shape real nodes send (MN-35: `{"totalCount",
 * "organizations":[…]}`, the key perhaps with a namespace prefix; a page past the end may carry
 * only `totalCount`). Until an endpoint has, nothing of what it sends is shown (mgmt/errors.ts,
 * `withholdText`): a connection can be pointed at any local HTTPS service.
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';

export const ORGANIZATIONS_PATH = '/mgmt/organization/orgs';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown) => (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) || (typeof v === 'string' && /^\d{1,15}$/.test(v));

export function isOrganizationList(body: unknown): boolean {
  if (!isObject(body)) return false;
  const lists = Object.entries(body).filter(([k]) => k === 'organizations' || k.endsWith('.organizations'));
  if (lists.length > 0) return lists.every(([, v]) => Array.isArray(v) && v.every(isObject));
  return isCount(body.totalCount);
}

/**
 * Refusals of the credentials themselves: the same credentials cannot read the organization list
 * either, so no proof is tried after them (their wording is the console's own anyway).
 */
export const CREDENTIALS_REFUSED: ReadonlySet<string> = new Set([
  'api.4001',
  'api.4022',
  'api.4025',
  'yang.access-denied',
  'oauth.invalid_token',
  'oauth.access_token_expired',
  'oauth.invalid_client',
  'oauth.invalid_grant',
  'oauth.invalid_refresh_token',
  'oauth.user_credentials_not_matched',
  'oauth.client_expired',
  'oauth.client_secret_expired',
]);

/** The organization list answered 2xx, but not as a management node would: nothing of it is shown. */
export function notAManagementNode(where: { host: string; port: number }): AppError {
  return new AppError(
    ErrorCodes.unexpectedResponse,
    `${where.host}:${where.port} did not answer as a management node: its answer to the organization list is not one.`,
    'Check the host and port: they must be the management node’s API (the basic-auth port, 9182, or the OAuth port, 9183).',
    { details: { host: where.host, port: where.port, answeredAsNode: false } },
  );
}
