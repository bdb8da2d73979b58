/**
 * A certificate failure is only useful to the operator with the certificate in hand: this
 * probes the presented certificate (no bytes sent, see probe.ts) and attaches it as
 * `details.certificate`, so the UI can show the fingerprint to compare.
 *
 * Under a pin, OpenSSL rejects a different self-signed certificate before our fingerprint
 * check runs (the pinned one is the only trust anchor), so a verification failure is
 * compared with the pin here and reported as `tls.pin_mismatch` when the fingerprint differs.
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { CertificateInfo, TlsTrust } from '../../shared/model/profile';
import { pinMismatchError, type Endpoint } from './net-errors';
import { normalizeFingerprint } from './tls-options';

export type CertificateProbe = (host: string, port: number) => Promise<CertificateInfo>;

function withDetails(e: AppError, extra: Record<string, unknown>): AppError {
  return new AppError(e.code, e.message, e.hint, {
    details: { ...(e.details ?? {}), ...extra },
    ...(e.status !== undefined ? { status: e.status } : {}),
    cause: e.cause ?? e,
  });
}

/** Attach the presented certificate to a TLS trust error (other errors pass through). */
export async function explainCertificateFailure(e: AppError, trust: TlsTrust, ep: Endpoint, probe: CertificateProbe): Promise<AppError> {
  if (e.code !== ErrorCodes.tlsUntrusted && e.code !== ErrorCodes.tlsPinMismatch) return e;
  if (e.details?.certificate) return e;
  let certificate: CertificateInfo;
  try {
    certificate = await probe(ep.host, ep.port);
  } catch {
    return e; // the node went away meanwhile: the original error is still the right one
  }
  if (e.code === ErrorCodes.tlsUntrusted && trust.mode === 'pinned' && trust.fingerprint256) {
    const expected = normalizeFingerprint(trust.fingerprint256);
    if (certificate.fingerprint256 !== expected) return pinMismatchError(ep, expected, certificate.fingerprint256, certificate, e);
  }
  return withDetails(e, { certificate });
}
