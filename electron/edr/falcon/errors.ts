/** Operator-facing errors of the Falcon connector: what went wrong and what to change. */
import { AppError, ErrorCodes } from '../../../shared/model/errors';
import type { FalconCloud, FalconCloudSetting } from './regions';

export const FalconErrorCodes = {
  wrongRegion: 'falcon.wrong_region',
  authFailed: 'falcon.auth_failed',
  tokenRejected: 'falcon.token_rejected',
  forbidden: 'falcon.forbidden',
  rateLimited: 'falcon.rate_limited',
  unavailable: 'falcon.unavailable',
  badResponse: 'falcon.bad_response',
  requestRejected: 'falcon.request_rejected',
} as const;

export const SCOPES_HINT = 'the API client needs the scopes Hosts: Read and Zero Trust Assessment: Read';

export function wrongRegionError(configured: FalconCloud, actual: FalconCloud, baseUrl: string): AppError {
  return new AppError(
    FalconErrorCodes.wrongRegion,
    `Your Falcon tenant lives in ${actual}, but the connector is set to ${configured}.`,
    `Set Cloud Region to ${actual} (or Autodiscover) and save.`,
    { details: { configured, actual, baseUrl } },
  );
}

export function authFailedError(status: number, vendorMessage: string | undefined, setting: FalconCloudSetting, url: string): AppError {
  const gov =
    setting === 'us-gov-1'
      ? ''
      : ' If the tenant is in GovCloud (us-gov-1), choose that region explicitly: GovCloud clients are unknown to the commercial clouds and autodiscovery cannot find them.';
  return new AppError(
    FalconErrorCodes.authFailed,
    `Falcon refused the API client credentials (HTTP ${status}${vendorMessage ? `: ${vendorMessage}` : ''}).`,
    `Check the Client ID and Client Secret (create a new secret in Support and resources > API clients and keys if unsure); ${SCOPES_HINT}.${gov}`,
    { status, details: { status, url, ...(vendorMessage ? { vendorMessage } : {}) } },
  );
}

export function tokenRejectedError(region: FalconCloud, url: string): AppError {
  return new AppError(
    FalconErrorCodes.tokenRejected,
    `Falcon (${region}) rejected a fresh access token: access denied, invalid bearer token.`,
    `The token was issued but ${url} does not accept it: check the Cloud Region (or use Autodiscover) and that the API client was not deleted or disabled.`,
    { status: 401, details: { region, url } },
  );
}

export function forbiddenError(path: string, vendorMessage: string | undefined): AppError {
  const what = path.startsWith('/zero-trust-assessment') ? 'Zero Trust Assessment: Read' : 'Hosts: Read';
  return new AppError(
    FalconErrorCodes.forbidden,
    `Falcon denied ${path} (HTTP 403${vendorMessage ? `: ${vendorMessage}` : ''}).`,
    `Edit the API client in the Falcon console and give it ${what}; ${SCOPES_HINT}. If the client has them, check the IP allowlist of the API client.`,
    { status: 403, details: { path, scope: what } },
  );
}

export function unavailableError(path: string, attempts: number, last: string): AppError {
  return new AppError(ErrorCodes.network, `Falcon did not answer ${path} after ${attempts} attempts (${last}).`, 'The Falcon API may be having trouble; the next poll tries again. Check the network path to the API if it persists.', {
    details: { path, attempts, last },
  });
}

export function rateLimitedError(path: string, waits: number): AppError {
  return new AppError(FalconErrorCodes.rateLimited, `Falcon kept answering 429 (rate limit) for ${path} after ${waits} waits.`, 'Another integration may share this API client’s rate budget; give the connector its own API client or poll less often.', {
    status: 429,
    details: { path, waits },
  });
}

export function requestRejectedError(path: string, status: number, vendorMessage: string | undefined): AppError {
  return new AppError(FalconErrorCodes.requestRejected, `Falcon rejected ${path} (HTTP ${status}${vendorMessage ? `: ${vendorMessage}` : ''}).`, 'This is unexpected for a read-only poll; report it with the connector log.', {
    status,
    details: { path, status, ...(vendorMessage ? { vendorMessage } : {}) },
  });
}

export function badResponseError(path: string, why: string): AppError {
  return new AppError(FalconErrorCodes.badResponse, `Falcon answered ${path} with something the connector cannot read (${why}).`, 'The next poll tries again; report it with the connector log if it persists.', {
    details: { path, why },
  });
}

/** The first vendor error message of a Falcon JSON body, if any. */
export function vendorMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { errors?: { message?: unknown }[] | null };
    const m = parsed.errors?.[0]?.message;
    return typeof m === 'string' ? m.slice(0, 300) : undefined;
  } catch {
    return undefined;
  }
}
