/** A loopback HTTPS server with a fresh self-signed certificate, for the net tests. */
import { X509Certificate } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generate } from 'selfsigned';

export interface TestCert {
  key: string;
  cert: string;
  fingerprint256: string;
}

export async function makeCert(names: { cn?: string; dns?: string[]; ips?: string[] } = {}): Promise<TestCert> {
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: names.cn ?? 'test-node.local' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 3_600_000),
    notAfterDate: new Date(now + 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [...(names.dns ?? ['localhost']).map((value) => ({ type: 2 as const, value })), ...(names.ips ?? ['127.0.0.1']).map((ip) => ({ type: 7 as const, ip }))],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert, fingerprint256: new X509Certificate(pems.cert).fingerprint256 };
}

export type Handler = (req: IncomingMessage, res: ServerResponse, body: string) => void;

export async function startTlsServer(cert: TestCert, handler: Handler) {
  const server = createServer({ key: cert.key, cert: cert.cert }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => handler(req, res, Buffer.concat(chunks).toString('utf8')));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: `https://127.0.0.1:${port}`,
    setCert: (c: TestCert) => server.setSecureContext({ key: c.key, cert: c.cert }),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
