import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpClient } from '../../../electron/net/http-client';
import { inspectCertificate, probeCertificate } from '../../../electron/net/probe';
import { transportError } from '../../../electron/net/net-errors';
import { isTransient } from '../../../electron/net/retry';
import { makeCert, startTlsServer, type TestCert } from './tls-fixture';

let cert: TestCert;
let rotated: TestCert;
let server: Awaited<ReturnType<typeof startTlsServer>>;
let dir: string;
const seen: { method?: string; url?: string; headers: Record<string, unknown>; body: string }[] = [];

beforeAll(async () => {
  [cert, rotated] = await Promise.all([makeCert(), makeCert()]);
  dir = mkdtempSync(join(tmpdir(), 'nb-http-'));
  server = await startTlsServer(cert, (req, res, body) => {
    seen.push({ method: req.method, url: req.url, headers: req.headers, body });
    if (req.url === '/slow') return void setTimeout(() => res.end('{}'), 2_000);
    if (req.url === '/big') return void res.end('x'.repeat(2048));
    if (req.url === '/chunks') {
      // Several writes: the client gets the body in more than one chunk.
      res.setHeader('content-type', 'application/json');
      res.write('{"resources":["');
      return void setTimeout(() => {
        res.write('é'.repeat(100_000));
        setTimeout(() => res.end('"]}'), 20);
      }, 20);
    }
    if (req.url === '/denied') {
      res.statusCode = 403;
      return void res.end('{"errors":[{"message":"access denied, authorization failed"}]}');
    }
    res.setHeader('content-type', 'application/json; charset=utf-8');
    res.end(JSON.stringify({ ok: true }));
  });
});
afterAll(async () => {
  await server.close();
  rmSync(dir, { recursive: true, force: true });
});

const pinned = () => ({ mode: 'pinned' as const, fingerprint256: cert.fingerprint256, certificatePem: cert.cert });

describe('HttpClient', () => {
  it('sends JSON with the right headers and reads the answer (pinned)', async () => {
    const http = new HttpClient({ tls: pinned() });
    const res = await http.request({ method: 'POST', url: `${server.url}/x`, json: { a: 1 }, headers: { Authorization: 'Bearer t' } });
    expect(res).toMatchObject({ status: 200, contentType: 'application/json', body: '{"ok":true}' });
    const req = seen.at(-1)!;
    expect(req.headers).toMatchObject({ 'content-type': 'application/json', accept: 'application/json', authorization: 'Bearer t' });
    expect(req.body).toBe('{"a":1}');
    await http.close();
  });

  it('bytes: a successful answer stays bytes over a buffer of its own (transferable), not decoded; an error answer is text too', async () => {
    const http = new HttpClient({ tls: pinned() });
    const res = await http.request({ method: 'GET', url: `${server.url}/chunks`, bytes: true });
    expect(res.status).toBe(200);
    expect(res.body).toBe('');
    const bytes = res.bytes!;
    expect(bytes.byteOffset).toBe(0);
    expect(bytes.buffer.byteLength).toBe(bytes.byteLength);
    expect(JSON.parse(Buffer.from(bytes).toString('utf8'))).toEqual({ resources: ['é'.repeat(100_000)] });
    // Moved to a worker, the buffer is gone here: it was nobody else's.
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(bytes, [bytes.buffer as ArrayBuffer]);
    expect(bytes.byteLength).toBe(0);
    port1.close();
    port2.close();

    const denied = await http.request({ method: 'GET', url: `${server.url}/denied`, bytes: true });
    expect(denied).toMatchObject({ status: 403, body: '{"errors":[{"message":"access denied, authorization failed"}]}' });
    // Without it, the same answer is text as always.
    expect((await http.request({ method: 'GET', url: `${server.url}/chunks` })).body).toBe(`{"resources":["${'é'.repeat(100_000)}"]}`);
    await http.close();
  });

  it('form bodies are url-encoded', async () => {
    const http = new HttpClient({ tls: pinned() });
    await http.request({ method: 'POST', url: `${server.url}/form`, form: { grant_type: 'client_credentials', scope: 'a b' } });
    expect(seen.at(-1)).toMatchObject({ body: 'grant_type=client_credentials&scope=a+b', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    await http.close();
  });

  it('custom-ca with the self-signed certificate as CA works', async () => {
    const http = new HttpClient({ tls: { mode: 'custom-ca', caPem: cert.cert } });
    expect((await http.request({ method: 'GET', url: `${server.url}/` })).status).toBe(200);
    await http.close();
  });

  it('custom-ca: a certificate for another host name is tls.untrusted', async () => {
    const foreign = await makeCert({ dns: ['other.example'], ips: [] });
    const srv = await startTlsServer(foreign, (_q, res) => res.end('{}'));
    const http = new HttpClient({ tls: { mode: 'custom-ca', caPem: foreign.cert } });
    const err = await http.request({ method: 'GET', url: `${srv.url}/` }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'tls.untrusted', details: { reason: 'ERR_TLS_CERT_ALTNAME_INVALID', certificate: { fingerprint256: foreign.fingerprint256 } } });
    expect((err as Error).message).toMatch(/issued for another host name/);
    await http.close();
    await srv.close();
  });

  it('system trust refuses the self-signed certificate with tls.untrusted carrying it', async () => {
    const http = new HttpClient({ tls: { mode: 'system' } });
    const before = seen.length;
    const err = await http.request({ method: 'POST', url: `${server.url}/secret`, json: { password: 'x' } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'tls.untrusted', hint: 'Compare the fingerprint with the node’s and trust it, or choose the CA file.' });
    expect((err as { details: { certificate: { fingerprint256: string; selfSigned: boolean } } }).details.certificate).toMatchObject({ fingerprint256: cert.fingerprint256, selfSigned: true, trustedBySystem: false });
    expect(seen.length).toBe(before); // nothing reached the server
    await http.close();
    // A vendor's client: the hint speaks of the vendor and the connector's CA file, not of a node.
    const vendor = new HttpClient({ tls: { mode: 'system' }, peer: 'the Example API' });
    const vendorErr = await vendor.request({ method: 'GET', url: `${server.url}/` }).catch((e: unknown) => e);
    expect(vendorErr).toMatchObject({ code: 'tls.untrusted', hint: expect.stringContaining('the Example API') });
    expect((vendorErr as Error & { hint: string }).hint).not.toMatch(/node/);
    await vendor.close();
  });

  it('pinned without a pin: tls.untrusted with the probed certificate', async () => {
    const http = new HttpClient({ tls: { mode: 'pinned' } });
    const err = await http.request({ method: 'GET', url: `${server.url}/` }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'tls.untrusted', details: { reason: 'not-pinned', certificate: { fingerprint256: cert.fingerprint256 } } });
    await http.close();
  });

  it('a certificate that differs from the pin: tls.pin_mismatch with expected and actual', async () => {
    const http = new HttpClient({ tls: { mode: 'pinned', fingerprint256: rotated.fingerprint256, certificatePem: rotated.cert } });
    const err = await http.request({ method: 'GET', url: `${server.url}/` }).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'tls.pin_mismatch', details: { expected: rotated.fingerprint256, actual: cert.fingerprint256 } });
    expect((err as Error).message).toMatch(/changed since you trusted it.*attack/);
    await http.close();
  });

  it('a pin whose PEM matches but fingerprint does not (checkServerIdentity path) is tls.pin_mismatch', async () => {
    const http = new HttpClient({ tls: { mode: 'pinned', fingerprint256: rotated.fingerprint256, certificatePem: cert.cert } });
    await expect(http.request({ method: 'GET', url: `${server.url}/` })).rejects.toMatchObject({ code: 'tls.pin_mismatch', details: { expected: rotated.fingerprint256, actual: cert.fingerprint256 } });
    await http.close();
  });

  it('with resendOnReset, sends an idempotent request once more when the connection is reset before an answer; never a POST; off by default', async () => {
    let resets = 0;
    const srv = await startTlsServer(cert, (req, res) => {
      if (req.url === '/flaky' && resets === 0) {
        resets += 1;
        req.socket.destroy();
        return;
      }
      if (req.url === '/always-reset') return void req.socket.destroy();
      res.end('{"ok":true}');
    });
    const plain = new HttpClient({ tls: pinned() });
    expect(await plain.request({ method: 'GET', url: `${srv.url}/flaky` }).catch((e: unknown) => e)).toMatchObject({ code: 'net.unreachable' });
    await plain.close();
    resets = 0;
    const http = new HttpClient({ tls: pinned(), resendOnReset: true });
    expect((await http.request({ method: 'GET', url: `${srv.url}/flaky` })).status).toBe(200);
    expect(resets).toBe(1);
    const post = await http.request({ method: 'POST', url: `${srv.url}/always-reset`, json: {} }).catch((e: unknown) => e);
    expect(post).toMatchObject({ code: 'net.unreachable' });
    const get = await http.request({ method: 'GET', url: `${srv.url}/always-reset` }).catch((e: unknown) => e);
    expect(get).toMatchObject({ code: 'net.unreachable' });
    await http.close();
    await srv.close();
  });

  it('times out with net.timeout', async () => {
    const http = new HttpClient({ tls: pinned(), timeoutMs: 200 });
    await expect(http.request({ method: 'GET', url: `${server.url}/slow` })).rejects.toMatchObject({ code: 'net.timeout' });
    await http.close();
  });

  it('the hints name who should answer there (peer), never the node, and a name that does not resolve is not worth another try', async () => {
    const port = await freePort();
    const http = new HttpClient({ tls: pinned(), peer: (host) => (host === '127.0.0.1' ? 'the Example API' : 'the Example sign-in') });
    const refused = await http.request({ method: 'GET', url: `https://127.0.0.1:${port}/` }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'net.unreachable', hint: `Is 127.0.0.1:${port} the address of the Example API? Can this machine reach it (DNS, proxy, firewall)?` });
    expect(isTransient(refused)).toBe(true);
    const unknown = await http.request({ method: 'GET', url: 'https://login.no-such-host.invalid/' }).catch((e: unknown) => e);
    expect(unknown).toMatchObject({ code: 'net.unreachable', message: 'Cannot reach login.no-such-host.invalid:443: the host name does not resolve.', hint: 'Check the address of the Example sign-in (login.no-such-host.invalid is not a name your DNS knows).' });
    expect(isTransient(unknown)).toBe(false);
    await http.close();
    // Without a peer: the management node's client, as before.
    const node = new HttpClient({ tls: pinned() });
    await expect(node.request({ method: 'GET', url: 'https://node.no-such-host.invalid:9182/' })).rejects.toMatchObject({ hint: 'Is the host name right? Is it in your DNS?' });
    await node.close();
  });

  it('a refused port is net.unreachable with the hint', async () => {
    const port = await freePort();
    const http = new HttpClient({ tls: pinned() });
    await expect(http.request({ method: 'GET', url: `https://127.0.0.1:${port}/` })).rejects.toMatchObject({ code: 'net.unreachable', hint: 'Is the host and port right? Is the node up?' });
    await http.close();
  });

  it('caps the body size', async () => {
    const http = new HttpClient({ tls: pinned(), maxBodyBytes: 1024 });
    await expect(http.request({ method: 'GET', url: `${server.url}/big` })).rejects.toMatchObject({ code: 'mgmt.unexpected_response' });
    await http.close();
  });

  it('a cancelled request is cancelled', async () => {
    const http = new HttpClient({ tls: pinned() });
    const ctl = new AbortController();
    const p = http.request({ method: 'GET', url: `${server.url}/slow`, signal: ctl.signal });
    setTimeout(() => ctl.abort(), 50);
    await expect(p).rejects.toMatchObject({ code: 'cancelled' });
    await http.close();
    await expect(http.request({ method: 'GET', url: `${server.url}/` })).rejects.toMatchObject({ code: 'cancelled' });
  });
});

describe('probe', () => {
  it('describes the presented certificate without sending anything', async () => {
    const before = seen.length;
    const { info, pem } = await probeCertificate('127.0.0.1', server.port);
    expect(info).toMatchObject({ host: '127.0.0.1', port: server.port, subject: 'CN=test-node.local', issuer: 'CN=test-node.local', fingerprint256: cert.fingerprint256, selfSigned: true, trustedBySystem: false });
    expect(info.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(info.altNames).toContain('IP Address:127.0.0.1');
    expect(new Date(info.validTo).getTime()).toBeGreaterThan(Date.now());
    expect(pem.trim()).toBe(cert.cert.trim());
    expect(seen.length).toBe(before);
  });

  it('unreachable and non-TLS ports are reported', async () => {
    const port = await freePort();
    await expect(inspectCertificate('127.0.0.1', port)).rejects.toMatchObject({ code: 'net.unreachable' });
    const plain = createServer((s) => s.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    await new Promise<void>((r) => plain.listen(0, '127.0.0.1', r));
    const p = (plain.address() as { port: number }).port;
    await expect(inspectCertificate('127.0.0.1', p, { timeoutMs: 2000 })).rejects.toMatchObject({ code: expect.stringMatching(/^(tls\.failed|net\.unreachable)$/) });
    plain.close();
  });

  it('times out when nobody answers the handshake', async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const p = (silent.address() as { port: number }).port;
    await expect(inspectCertificate('127.0.0.1', p, { timeoutMs: 200 })).rejects.toMatchObject({ code: 'net.timeout' });
    silent.close();
  });
});

describe('transportError', () => {
  const ep = { host: 'node', port: 9183 };
  const coded = (code: string) => Object.assign(new Error(code), { code });
  it.each([
    ['ECONNREFUSED', 'net.unreachable'],
    ['ENOTFOUND', 'net.unreachable'],
    ['UND_ERR_CONNECT_TIMEOUT', 'net.timeout'],
    ['UND_ERR_HEADERS_TIMEOUT', 'net.timeout'],
    ['DEPTH_ZERO_SELF_SIGNED_CERT', 'tls.untrusted'],
    ['UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'tls.untrusted'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'tls.untrusted'],
    ['CERT_HAS_EXPIRED', 'tls.untrusted'],
    ['ERR_SSL_WRONG_VERSION_NUMBER', 'tls.failed'],
  ])('%s → %s', (code, expected) => {
    expect(transportError(coded(code), ep).code).toBe(expected);
  });

  it('looks through wrapped causes', () => {
    expect(transportError(new TypeError('fetch failed', { cause: coded('ECONNREFUSED') }), ep).code).toBe('net.unreachable');
  });
});

async function freePort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
