/**
 * The certificate probe over real TLS on loopback: it reads an untrusted certificate while Node
 * keeps verification on, and never sends a byte of application data.
 */
import { X509Certificate } from 'node:crypto';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import * as tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/model/errors';
import { probeCertificate } from '../../../electron/net/probe';
import { until } from '../../support/until';
import { makeCert } from './tls-fixture';

const closers: Array<() => void> = [];
afterEach(() => closers.splice(0).forEach((c) => c()));

async function listen(server: tls.Server | ReturnType<typeof createTcpServer>): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  closers.push(() => server.close());
  return (server.address() as AddressInfo).port;
}

describe('probeCertificate', () => {
  for (const version of ['TLSv1.2', 'TLSv1.3'] as const) {
    it(`reads a self-signed certificate over ${version}, reports it untrusted and sends nothing`, async () => {
      const cert = await makeCert({ cn: 'probe.test' });
      let received = 0;
      let handshakes = 0;
      const server = tls.createServer({ key: cert.key, cert: cert.cert, minVersion: version, maxVersion: version }, (s) => {
        handshakes++;
        s.on('data', (d: Buffer) => (received += d.length));
        s.on('error', () => {});
      });
      server.on('tlsClientError', () => {});
      // The raw connection's end is the event that proves nothing more can arrive from the probe.
      let closed = 0;
      server.on('connection', (raw: Socket) => raw.on('close', () => closed++));
      const port = await listen(server);

      const probed = await probeCertificate('127.0.0.1', port);
      expect(probed.info).toMatchObject({ host: '127.0.0.1', port, fingerprint256: cert.fingerprint256, selfSigned: true, trustedBySystem: false, subject: expect.stringContaining('CN=probe.test') });
      expect(new X509Certificate(probed.pem).fingerprint256).toBe(cert.fingerprint256);
      await until('the probe closed its connection', () => closed === 1);
      expect(received).toBe(0);
      expect(handshakes).toBeLessThanOrEqual(1);
    });
  }

  it('a port that does not speak TLS is a transport error, not a certificate', async () => {
    const server = createTcpServer((s) => s.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    const port = await listen(server);
    const e = await probeCertificate('127.0.0.1', port).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(AppError);
    expect((e as AppError).details).toMatchObject({ host: '127.0.0.1', port });
  });
});
