/**
 * Certificate probe: reads the certificate a server presents so the operator can compare its
 * fingerprint with the node's before trusting it.
 *
 * Verification stays on: the probe connects with Node's defaults (`rejectUnauthorized`
 * true, the system CAs, host name checks), so a certificate that does not verify ends the
 * connection inside Node, before a single application byte could be sent. The certificate is
 * read during the handshake instead: with `requestOCSP` set, Node emits `OCSPResponse` once the
 * server's certificate has arrived (whether or not the server staples a response), before the
 * handshake's outcome is decided. The outcome is then reported as `trustedBySystem`: true on
 * `secureConnect`, false when Node refused the certificate (`authorizationError`). Nothing is
 * ever sent on this socket, and every connection that carries data goes through
 * `createTlsOptions`.
 */
import type { X509Certificate } from 'node:crypto';
import { isIP, type Socket } from 'node:net';
import * as tls from 'node:tls';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { CertificateInfo } from '../../shared/model/profile';
import { systemCaList } from './tls-options';
import { transportError } from './net-errors';

export interface ProbeOptions {
  timeoutMs?: number;
  /** A connected socket to start TLS on (a protocol that negotiates TLS first, as PostgreSQL's SSLRequest). */
  socket?: Socket;
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
    let peer: X509Certificate | undefined;
    // tls.connect hands `requestOCSP` to the TLSSocket it creates; @types/node lists it only there.
    const options: tls.ConnectionOptions & Pick<tls.TLSSocketOptions, 'requestOCSP'> = {
      ...(opts.socket ? { socket: opts.socket } : { host, port }),
      ...(isIP(host) ? {} : { servername: host }),
      ...(ca ? { ca } : {}),
      // Only so that Node hands us the certificate during the handshake (see the file comment).
      requestOCSP: true,
      ...(opts.socket ? {} : { ALPNProtocols: ['http/1.1'] }),
    };
    const socket = tls.connect(options);
    const finish = (err: unknown, value?: ProbedCertificate) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      opts.socket?.destroy();
      if (err) reject(err);
      else resolve(value as ProbedCertificate);
    };
    const noCertificate = () => new AppError(ErrorCodes.tlsFailed, `${host}:${port} presented no certificate.`, 'Check that this is the HTTPS port of the management node.', { details: { host, port } });
    const described = (cert: X509Certificate, trusted: boolean): ProbedCertificate => ({ info: describeCertificate(cert, host, port, trusted), pem: cert.toString() });
    const timer = setTimeout(() => {
      finish(
        new AppError(ErrorCodes.timeout, `${host}:${port} did not complete a TLS handshake within ${Math.round(timeoutMs / 1000)} s.`, 'Is the host and port right? Is the node up, and is a firewall dropping the connection?', {
          details: { host, port },
        }),
      );
    }, timeoutMs);
    socket.once('OCSPResponse', () => {
      peer = socket.getPeerX509Certificate();
    });
    socket.once('secureConnect', () => {
      const cert = peer ?? socket.getPeerX509Certificate();
      if (cert) finish(undefined, described(cert, true));
      else finish(noCertificate());
    });
    socket.once('error', (e) => {
      // Node refused the certificate (chain or host name) after the handshake had shown it to us.
      if (peer && socket.authorizationError) finish(undefined, described(peer, false));
      else finish(transportError(e, { host, port }));
    });
  });
}

/**
 * Opens a TLS connection only to read the presented certificate (no application bytes, no
 * credentials) and describes it for the operator.
 */
export async function inspectCertificate(host: string, port: number, opts: ProbeOptions = {}): Promise<CertificateInfo> {
  return (await probeCertificate(host, port, opts)).info;
}
