/**
 * Issue 7.5: a pinned certificate that a private CA issued. The pin is the only trust anchor
 * (OpenSSL's partial chain), so the connection verifies whether the server sends the leaf
 * alone or the leaf with its CA; the fingerprint check still refuses another leaf of that CA.
 */
import { X509Certificate } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate } from 'selfsigned';
import { HttpClient } from '../../../electron/net/http-client';
import { startTlsServer, type TestCert } from './tls-fixture';

const day = 86_400_000;
async function makeCa(): Promise<{ key: string; cert: string }> {
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: 'Northbound Test Root CA' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 3_600_000),
    notAfterDate: new Date(now + day),
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}

async function issueLeaf(ca: { key: string; cert: string }, cn: string): Promise<TestCert> {
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: cn }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 3_600_000),
    notAfterDate: new Date(now + day),
    ca,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] },
    ],
  });
  return { key: pems.private, cert: pems.cert, fingerprint256: new X509Certificate(pems.cert).fingerprint256 };
}

let ca: { key: string; cert: string };
let leaf: TestCert;
let sibling: TestCert;
const servers: Array<Awaited<ReturnType<typeof startTlsServer>>> = [];
beforeAll(async () => {
  ca = await makeCa();
  [leaf, sibling] = await Promise.all([issueLeaf(ca, 'node.test'), issueLeaf(ca, 'other.test')]);
  expect(new X509Certificate(leaf.cert).checkIssued(new X509Certificate(ca.cert))).toBe(true);
});
afterAll(async () => {
  for (const s of servers) await s.close();
});

const ok = (_req: unknown, res: { end(body: string): void }) => res.end('{"ok":true}');

describe('pinned certificate issued by a private CA', () => {
  it('connects when the server sends the leaf with its CA (was SELF_SIGNED_CERT_IN_CHAIN)', async () => {
    const srv = await startTlsServer({ ...leaf, cert: `${leaf.cert.trim()}\n${ca.cert}` }, ok);
    servers.push(srv);
    const http = new HttpClient({ tls: { mode: 'pinned', fingerprint256: leaf.fingerprint256, certificatePem: leaf.cert } });
    expect((await http.request({ method: 'GET', url: `${srv.url}/` })).status).toBe(200);
    await http.close();
  });

  it('connects when the server sends the leaf alone', async () => {
    const srv = await startTlsServer(leaf, ok);
    servers.push(srv);
    const http = new HttpClient({ tls: { mode: 'pinned', fingerprint256: leaf.fingerprint256, certificatePem: leaf.cert } });
    expect((await http.request({ method: 'GET', url: `${srv.url}/` })).status).toBe(200);
    await http.close();
  });

  it('refuses another leaf of the same CA', async () => {
    const srv = await startTlsServer({ ...sibling, cert: `${sibling.cert.trim()}\n${ca.cert}` }, ok);
    servers.push(srv);
    const http = new HttpClient({ tls: { mode: 'pinned', fingerprint256: leaf.fingerprint256, certificatePem: leaf.cert } });
    const err = await http.request({ method: 'GET', url: `${srv.url}/` }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: expect.stringMatching(/^tls\./) });
    await http.close();
  });
});
