import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as tls from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTlsOptions, normalizeFingerprint, PinMismatchError, systemCaList } from '../../../electron/net/tls-options';
import { makeCert, type TestCert } from './tls-fixture';

let cert: TestCert;
let other: TestCert;
let dir: string;

beforeAll(async () => {
  [cert, other] = await Promise.all([makeCert(), makeCert()]);
  dir = mkdtempSync(join(tmpdir(), 'nb-tls-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const peer = (c: TestCert) => ({ fingerprint256: c.fingerprint256 }) as tls.PeerCertificate;

describe('createTlsOptions', () => {
  it('system: Node defaults on Node 20 (no getCACertificates), never rejectUnauthorized: false', () => {
    const opts = createTlsOptions({ mode: 'system' }, 'node.example');
    expect(opts).not.toHaveProperty('rejectUnauthorized');
    if (typeof (tls as { getCACertificates?: unknown }).getCACertificates !== 'function') {
      expect(systemCaList()).toBeUndefined();
      expect(opts.ca).toBeUndefined();
    } else {
      expect(opts.ca?.length).toBeGreaterThan(0);
    }
  });

  it('custom-ca takes every certificate of the stored PEM text', () => {
    const opts = createTlsOptions({ mode: 'custom-ca', caPem: `# comment\n${cert.cert}\n${other.cert}` }, 'node');
    expect(opts.ca).toHaveLength(2);
    expect(opts.checkServerIdentity).toBeUndefined();
  });

  it('custom-ca: a legacy entry with only a path is never read here: tls.ca_file asks for the file again', () => {
    expect(() => createTlsOptions({ mode: 'custom-ca', caFile: join(dir, 'nope.pem') }, 'node')).toThrow(
      expect.objectContaining({ code: 'tls.ca_file', details: { reason: 'not-read' } }),
    );
  });

  it('custom-ca: text without PEM certificates is tls.ca_file', () => {
    expect(() => createTlsOptions({ mode: 'custom-ca', caPem: cert.key }, 'node')).toThrow(expect.objectContaining({ code: 'tls.ca_file', message: expect.stringContaining('no PEM certificate') }));
  });

  it('pinned: OpenSSL may stop at the pinned leaf (partial chain), so CA-issued leaves can be pinned', () => {
    expect(createTlsOptions({ mode: 'pinned', fingerprint256: cert.fingerprint256, certificatePem: cert.cert }, 'node').allowPartialTrustChain).toBe(true);
  });

  it('pinned: the pinned certificate is the only trust anchor, the fingerprint must match', () => {
    const opts = createTlsOptions({ mode: 'pinned', fingerprint256: cert.fingerprint256.toLowerCase(), certificatePem: cert.cert }, 'node');
    expect(opts.ca).toEqual([cert.cert.trim()]);
    expect(opts.checkServerIdentity?.('node', peer(cert))).toBeUndefined();
    const err = opts.checkServerIdentity?.('node', peer(other));
    expect(err).toBeInstanceOf(PinMismatchError);
    expect(err).toMatchObject({ expected: cert.fingerprint256, actual: other.fingerprint256 });
  });

  it('pinned without a pin yet is tls.untrusted (the UI shows the trust dialog)', () => {
    expect(() => createTlsOptions({ mode: 'pinned' }, 'node.example')).toThrow(expect.objectContaining({ code: 'tls.untrusted', details: expect.objectContaining({ reason: 'not-pinned' }) }));
    expect(() => createTlsOptions({ mode: 'pinned', fingerprint256: cert.fingerprint256 }, 'node.example')).toThrow(expect.objectContaining({ code: 'tls.untrusted' }));
  });

  it('normalizes fingerprints', () => {
    expect(normalizeFingerprint('ab:cd:ef')).toBe('AB:CD:EF');
    expect(normalizeFingerprint('abcdef')).toBe('AB:CD:EF');
  });
});
