/**
 * Socket, TLS and timeout errors (Node, OpenSSL, undici) turned into AppErrors an operator
 * understands. Certificate failures come out as `tls.untrusted` / `tls.pin_mismatch`; the
 * HTTP client then adds the presented certificate (see `certificate-failure.ts`).
 */
import { AppError, ErrorCodes, isAppError } from '../../shared/model/errors';
import { PinMismatchError } from './tls-options';

export interface Endpoint {
  host: string;
  port: number;
  /**
   * Who answers there, in words, for the hints (e.g. "CrowdStrike Falcon", "Microsoft Entra ID").
   * Unset: the management node, the client's first use.
   */
  peer?: string;
}

/** What to check when `ep` cannot be reached, in terms of who should be there. */
function reachHint(ep: Endpoint, code?: string): string {
  if (!ep.peer) return code === 'ENOTFOUND' ? 'Is the host name right? Is it in your DNS?' : 'Is the host and port right? Is the node up?';
  if (code === 'ENOTFOUND') return `Check the address of ${ep.peer} (${ep.host} is not a name your DNS knows).`;
  return `Is ${ep.host}:${ep.port} the address of ${ep.peer}? Can this machine reach it (DNS, proxy, firewall)?`;
}

/** OpenSSL verification results (err.code) that mean "this certificate is not trusted". */
const VERIFY_REASONS: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'it is self-signed',
  SELF_SIGNED_CERT_IN_CHAIN: 'its chain ends in a self-signed root that is not trusted',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'it was issued by an unknown certificate authority',
  UNABLE_TO_GET_ISSUER_CERT: 'it was issued by an unknown certificate authority',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'it was issued by an unknown certificate authority',
  CERT_UNTRUSTED: 'it is not trusted',
  CERT_REJECTED: 'it is rejected',
  CERT_HAS_EXPIRED: 'it has expired',
  CERT_NOT_YET_VALID: 'it is not valid yet',
  CERT_SIGNATURE_FAILURE: 'its signature is invalid',
  CERT_REVOKED: 'it was revoked',
  INVALID_CA: 'its issuer is not a valid certificate authority',
  INVALID_PURPOSE: 'it is not meant for TLS servers',
  CERT_CHAIN_TOO_LONG: 'its chain is too long',
  PATH_LENGTH_EXCEEDED: 'its chain is too long',
  ERROR_IN_CERT_NOT_BEFORE_FIELD: 'its validity dates are damaged',
  ERROR_IN_CERT_NOT_AFTER_FIELD: 'its validity dates are damaged',
  HOSTNAME_MISMATCH: 'it was issued for another host name',
  ERR_TLS_CERT_ALTNAME_INVALID: 'it was issued for another host name',
};

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EPIPE: 'the connection was closed',
  EHOSTUNREACH: 'the host is unreachable',
  ENETUNREACH: 'the network is unreachable',
  EHOSTDOWN: 'the host is down',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS not answering)',
  EADDRNOTAVAIL: 'the address is not available',
  UND_ERR_SOCKET: 'the connection was closed unexpectedly',
  UND_ERR_CLOSED: 'the connection was closed',
};

const TIMEOUTS = new Set(['ETIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ESOCKETTIMEDOUT']);

/** The first error in the cause chain that carries a code (undici and fetch wrap socket errors). */
function codedError(e: unknown): (Error & { code?: string }) | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 5 && cur; i++) {
    if (cur instanceof PinMismatchError) return cur;
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET' && code !== 'UND_ERR_CLOSED') return cur as Error & { code?: string };
    const next = (cur as { cause?: unknown }).cause;
    if (!next) return typeof code === 'string' ? (cur as Error & { code?: string }) : undefined;
    cur = next;
  }
  return undefined;
}

export const isVerifyFailure = (code: string | undefined) => !!code && code in VERIFY_REASONS;

export function timeoutError(ep: Endpoint, timeoutMs: number | undefined, cause?: unknown): AppError {
  const secs = timeoutMs !== undefined ? ` within ${Math.max(1, Math.round(timeoutMs / 1000))} s` : ' in time';
  const hint = ep.peer ? `${reachHint(ep)} It may be busy: try again in a moment.` : 'Is the host and port right? Is the node up, or busy? Try again in a moment.';
  return new AppError(ErrorCodes.timeout, `${ep.host}:${ep.port} did not answer${secs}.`, hint, {
    details: { host: ep.host, port: ep.port, ...(timeoutMs !== undefined ? { timeoutMs } : {}) },
    cause,
  });
}

/** The presented certificate is not the pinned one: loud, because it can be an attack. */
export function pinMismatchError(ep: Endpoint, expected: string, actual: string, certificate?: unknown, cause?: unknown): AppError {
  return new AppError(
    ErrorCodes.tlsPinMismatch,
    `The certificate of ${ep.host} changed since you trusted it. Nothing was sent. This can be a planned certificate renewal, but it could also be an attack (someone between you and the node).`,
    'Ask the node’s administrator whether the certificate was renewed and compare the new fingerprint before trusting it again.',
    { details: { host: ep.host, port: ep.port, expected, actual, ...(certificate ? { certificate } : {}) }, cause },
  );
}

/** Map any transport-level failure to an AppError (no certificate attached yet). */
export function transportError(e: unknown, ep: Endpoint & { timeoutMs?: number }): AppError {
  if (isAppError(e)) return e;
  const err = codedError(e);
  const code = err?.code;
  const where = `${ep.host}:${ep.port}`;
  if (err instanceof PinMismatchError) return pinMismatchError(ep, err.expected, err.actual, undefined, e);
  if (code && isVerifyFailure(code)) {
    const hint = ep.peer
      ? `Is ${where} the address of ${ep.peer}? If a proxy or a private CA signs its certificates, choose that CA file for the connector.`
      : 'Compare the fingerprint with the node’s and trust it, or choose the CA file.';
    return new AppError(ErrorCodes.tlsUntrusted, `The certificate of ${where} is not trusted: ${VERIFY_REASONS[code]}. Nothing was sent.`, hint, {
      details: { host: ep.host, port: ep.port, reason: code },
      cause: e,
    });
  }
  if (code && TIMEOUTS.has(code)) return timeoutError(ep, ep.timeoutMs, e);
  if (code && code in UNREACHABLE) {
    return new AppError(ErrorCodes.network, `Cannot reach ${where}: ${UNREACHABLE[code]}.`, reachHint(ep, code), {
      details: { host: ep.host, port: ep.port, reason: code },
      cause: e,
    });
  }
  if (code && (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_') || code === 'EPROTO')) {
    const hint = ep.peer ? `Check that ${where} is the HTTPS address of ${ep.peer}, not a plain HTTP port or a proxy.` : 'Check that this is the HTTPS port of the management node (9182 or 9183) and not a plain HTTP port.';
    return new AppError(ErrorCodes.tlsFailed, `The secure connection to ${where} failed (${code}).`, hint, {
      details: { host: ep.host, port: ep.port, reason: code },
      cause: e,
    });
  }
  const generic = (e as { code?: unknown })?.code;
  if (generic === 'UND_ERR_SOCKET' || generic === 'UND_ERR_CLOSED') {
    return new AppError(ErrorCodes.network, `The connection to ${where} was closed unexpectedly.`, reachHint(ep), {
      details: { host: ep.host, port: ep.port, reason: generic },
      cause: e,
    });
  }
  const message = e instanceof Error ? e.message : String(e);
  return new AppError(ErrorCodes.network, `The request to ${where} failed: ${message}`, reachHint(ep), {
    details: { host: ep.host, port: ep.port, ...(code ? { reason: code } : {}) },
    cause: e,
  });
}
