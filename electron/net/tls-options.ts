/**
 * TLS trust for one connection (never process-wide, never `rejectUnauthorized: false`).
 *
 * - system: Node's bundled roots (plus the OS store where this Node can read it).
 * - custom-ca: only the CA certificates of one PEM file.
 * - pinned: the certificate the operator accepted becomes the only trust anchor, so OpenSSL
 *   still verifies the chain; `checkServerIdentity` then compares the SHA-256 fingerprint
 *   with the pin (the pin, not the host name, is the identity the operator checked).
 */
import { X509Certificate } from 'node:crypto';
import * as tls from 'node:tls';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { TlsTrust } from '../../shared/model/profile';

/** The subset of `tls.ConnectionOptions` a connection needs for its trust decision. */
export interface TlsOptions {
  ca?: string[];
  allowPartialTrustChain?: boolean;
  checkServerIdentity?: (hostname: string, cert: tls.PeerCertificate) => Error | undefined;
}

/** A pinned profile's trust, as stored (the PEM travels with the pin). */
export type PinnedTrust = Extract<TlsTrust, { mode: 'pinned' }>;

/** Raised inside the TLS handshake when the presented certificate is not the pinned one. */
export class PinMismatchError extends Error {
  readonly code = 'ERR_TLS_PIN_MISMATCH';
  constructor(
    readonly expected: string,
    readonly actual: string,
  ) {
    super(`certificate fingerprint ${actual} does not match the pinned ${expected}`);
    this.name = 'PinMismatchError';
  }
}

/** Upper-case, colon-separated form of a SHA-256 fingerprint (as X509Certificate.fingerprint256). */
export function normalizeFingerprint(fp: string): string {
  const hex = fp.replace(/[^0-9a-fA-F]/g, '').toUpperCase();
  return hex.match(/.{1,2}/g)?.join(':') ?? '';
}

type GetCa = (type?: 'default' | 'system' | 'bundled' | 'extra') => string[];

/**
 * CA list for 'system' mode, or undefined to keep Node's defaults. Node 20 has no
 * `tls.getCACertificates` (added in Node 22.15/23.10): there the defaults (bundled roots plus
 * NODE_EXTRA_CA_CERTS) are used as they are.
 */
export function systemCaList(): string[] | undefined {
  const get = (tls as unknown as { getCACertificates?: GetCa }).getCACertificates;
  if (typeof get !== 'function') return undefined;
  try {
    return [...new Set([...get('default'), ...get('system')])];
  } catch {
    return undefined;
  }
}

const PEM_RE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** The certificates of a PEM text that really parse as X.509. */
export function pemCertificates(text: string): string[] {
  return (text.match(PEM_RE) ?? []).filter((pem) => {
    try {
      new X509Certificate(pem);
      return true;
    } catch {
      return false;
    }
  });
}

/** The CA certificates of a custom-CA trust's PEM text, or a clear error when there are none. */
export function caCertificates(caPem: string, name = 'The CA file'): string[] {
  const certs = pemCertificates(caPem);
  if (certs.length === 0) {
    throw new AppError(ErrorCodes.tlsCaFile, `${name} holds no PEM certificate.`, 'Choose a PEM file (text starting with -----BEGIN CERTIFICATE-----), not a key, a DER or a PKCS#12 file.', {
      details: { reason: 'not-pem' },
    });
  }
  return certs;
}

/** A pinned profile without an accepted certificate yet: the UI answers with the trust dialog. */
export function notPinnedYet(host: string): AppError {
  return new AppError(
    ErrorCodes.tlsUntrusted,
    `No certificate of ${host} has been trusted for this connection yet.`,
    'Compare the fingerprint with the node’s and trust it, or choose the CA file.',
    { details: { reason: 'not-pinned', host } },
  );
}

export function createTlsOptions(trust: TlsTrust, host: string): TlsOptions {
  switch (trust.mode) {
    case 'system': {
      const ca = systemCaList();
      return ca ? { ca } : {};
    }
    case 'custom-ca':
      if (!trust.caPem) {
        // A store from before the PEM was kept, whose file could not be read on start.
        throw new AppError(ErrorCodes.tlsCaFile, 'The CA certificate of this connection has not been read yet.', 'Edit the connection and choose the CA file (PEM) again.', {
          details: { reason: 'not-read' },
        });
      }
      return { ca: caCertificates(trust.caPem, trust.caName ? `The CA file ${trust.caName}` : undefined) };
    case 'pinned': {
      if (!trust.fingerprint256 || !trust.certificatePem) throw notPinnedYet(host);
      const expected = normalizeFingerprint(trust.fingerprint256);
      const ca = pemCertificates(trust.certificatePem);
      if (ca.length === 0) {
        throw new AppError(ErrorCodes.tlsUntrusted, `The trusted certificate stored for ${host} is damaged.`, 'Inspect the node’s certificate again, compare the fingerprint and trust it.', {
          details: { reason: 'pin-damaged', host },
        });
      }
      return {
        ca,
        // The pinned leaf is the anchor even when a CA issued it (OpenSSL's partial chain);
        // the fingerprint check below still decides.
        allowPartialTrustChain: true,
        checkServerIdentity: (_hostname, cert) => {
          const actual = normalizeFingerprint(cert.fingerprint256 ?? '');
          return actual === expected ? undefined : new PinMismatchError(expected, actual);
        },
      };
    }
  }
}
