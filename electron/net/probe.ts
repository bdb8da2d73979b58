/**
 * Certificate probe: reads the certificate a server presents so the operator can compare its
 * fingerprint with the node's before trusting it.
 *
 * This is the ONE place in the app that connects without enforcing certificate verification
 * (`rejectUnauthorized: false`). That is safe here because the probe only completes the TLS
 * handshake and closes the socket: it sends no application bytes, no credentials and no
 * tokens, and its result is only shown to the operator (or compared with a pin). Whether the
 * chain would verify against the system CAs for this host name is still reported
 * (`trustedBySystem`). Every connection that carries data goes through `createTlsOptions`.
 */
import type { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import * as tls from 'node:tls';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { CertificateInfo } from '../../shared/model/profile';
import { systemCaList } from './tls-options';
import { transportError } from './net-errors';

export interface ProbeOptions {
  timeoutMs?: number;
}

export interface ProbedCertificate {
  info: CertificateInfo;
  /** The leaf certificate in PEM form (what a pin stores as its trust anchor). */
  pem: string;
}

const oneLine = (dn: string) => dn.split('\n').filter(Boolean).join(', ');
const isoDate = (s: string) => {
  const d = new Date(s);
  return Number.isNaN(d.getTime()) ? s : d.toISOString();
};

function isSelfSigned(cert: X509Certificate): boolean {
  try {
    // checkIssued() is not used: it also demands keyCertSign, which self-signed server certificates often lack.
    return cert.subject === cert.issuer && cert.verify(cert.publicKey);
  } catch {
    return false;
  }
}

export function describeCertificate(cert: X509Certificate, host: string, port: number, trustedBySystem: boolean): CertificateInfo {
  return {
    host,
    port,
    subject: oneLine(cert.subject),
    issuer: oneLine(cert.issuer),
    validFrom: isoDate(cert.validFrom),
    validTo: isoDate(cert.validTo),
    fingerprint256: cert.fingerprint256,
    selfSigned: isSelfSigned(cert),
    trustedBySystem,
    ...(cert.subjectAltName ? { altNames: cert.subjectAltName } : {}),
  };
}

/** Probe and also return the PEM (for pinning). */
export function probeCertificate(host: string, port: number, opts: ProbeOptions = {}): Promise<ProbedCertificate> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const ca = systemCaList();
  return new Promise<ProbedCertificate>((resolve, reject) => {
    let settled = false;
    const socket = tls.connect({
      host,
      port,
      ...(isIP(host) ? {} : { servername: host }),
      ...(ca ? { ca } : {}),
      // See the file comment: nothing is sent on this socket; the result is only displayed.
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    const finish = (err: unknown, value?: ProbedCertificate) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(value as ProbedCertificate);
    };
    const timer = setTimeout(() => {
      finish(
        new AppError(ErrorCodes.timeout, `${host}:${port} did not complete a TLS handshake within ${Math.round(timeoutMs / 1000)} s.`, 'Is the host and port right? Is the node up, and is a firewall dropping the connection?', {
          details: { host, port },
        }),
      );
    }, timeoutMs);
    socket.once('secureConnect', () => {
      const peer = socket.getPeerX509Certificate();
      if (!peer) {
        finish(new AppError(ErrorCodes.tlsFailed, `${host}:${port} presented no certificate.`, 'Check that this is the HTTPS port of the management node.', { details: { host, port } }));
        return;
      }
      // With rejectUnauthorized false, Node still runs chain and host name verification and
      // reports the outcome in `authorized`.
      finish(undefined, { info: describeCertificate(peer, host, port, socket.authorized), pem: peer.toString() });
    });
    socket.once('error', (e) => finish(transportError(e, { host, port })));
  });
}

/**
 * Opens a TLS connection only to read the presented certificate (no application bytes, no
 * credentials) and describes it for the operator.
 */
export async function inspectCertificate(host: string, port: number, opts: ProbeOptions = {}): Promise<CertificateInfo> {
  return (await probeCertificate(host, port, opts)).info;
}
