/**
 * What a request may do to the trust of a stored connection (profile or EDR connector), and
 * whether a stored secret may stay. The rule (docs/architecture.md, "Secrets stay with their
 * endpoint"): a secret is bound to the endpoint and the trust it was entered for. A request
 * that changes either makes main drop the stored secret; the operator enters it again.
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { TlsTrust, TlsTrustInput } from '../../shared/model/profile';
import { caCertificates, normalizeFingerprint, pemCertificates } from './tls-options';

const fieldError = (path: string, message: string, hint: string) =>
  new AppError(ErrorCodes.validation, message, hint, { details: { issues: [{ path, message }] } });

/**
 * The trust a request asks for, resolved against what is stored. Absent keeps the stored trust
 * (system CAs for a new connection); a custom CA without PEM keeps the stored CA; a pin is
 * kept only while the endpoint is the same, and is never taken from a request.
 */
export function resolveTrust(input: TlsTrustInput | undefined, stored: TlsTrust | undefined, sameEndpoint: boolean): TlsTrust {
  if (!input) return stored ?? { mode: 'system' };
  switch (input.mode) {
    case 'system':
      return { mode: 'system' };
    case 'custom-ca': {
      if (input.caPem) {
        try {
          caCertificates(input.caPem);
        } catch (e) {
          const message = e instanceof AppError ? e.message : 'The CA file holds no PEM certificate.';
          throw fieldError('tls.caPem', message, 'Choose a PEM file (text starting with -----BEGIN CERTIFICATE-----).');
        }
        return { mode: 'custom-ca', caPem: input.caPem, ...(input.caName ? { caName: input.caName } : {}) };
      }
      if (stored?.mode === 'custom-ca' && (stored.caPem || stored.caFile)) {
        const caName = input.caName || stored.caName;
        return { ...stored, ...(caName ? { caName } : {}) };
      }
      throw fieldError('tls.caPem', 'Choose the CA certificate file (PEM).', 'Pick the PEM file of the CA that issued the server’s certificate.');
    }
    case 'pinned':
      return sameEndpoint && stored?.mode === 'pinned' && stored.fingerprint256 && stored.certificatePem
        ? { mode: 'pinned', fingerprint256: stored.fingerprint256, certificatePem: stored.certificatePem }
        : { mode: 'pinned' };
  }
}

const certSet = (pem: string) => pemCertificates(pem).map((c) => c.replace(/\s+/g, '')).sort().join('|');

/**
 * The trust as one comparable value: equal exactly when `sameTrust` holds (the certificates a
 * custom CA file holds, in any order; a pin by its fingerprint). Part of a secret's binding.
 */
export function trustKey(t: TlsTrust): string {
  switch (t.mode) {
    case 'system':
      return 'system';
    case 'pinned':
      return `pinned:${normalizeFingerprint(t.fingerprint256 ?? '')}`;
    case 'custom-ca':
      return t.caPem !== undefined ? `ca:${certSet(t.caPem)}` : `ca-file:${t.caFile ?? ''}`;
  }
}

/** True when both trusts accept exactly the same certificates. */
export function sameTrust(a: TlsTrust, b: TlsTrust): boolean {
  return trustKey(a) === trustKey(b);
}
