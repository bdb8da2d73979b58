/** TLS trust per connection against the simulator's self-signed certificate. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CertificateInfo } from '../../../shared/model/profile';
import type { MgmtSimulator } from '@northbound/simulators/testing';
import type { MgmtClient } from '../../../electron/mgmt/client';
import { inspectCertificate, probeCertificate } from '../../../electron/net/probe';
import { makeCert } from '../../unit/net/tls-fixture';
import { failure, makeClient, startSim, type ClientSpec } from './helpers';

let sim: MgmtSimulator;
let dir: string;
const open: MgmtClient[] = [];

beforeAll(async () => {
  sim = await startSim();
  dir = mkdtempSync(join(tmpdir(), 'nb-mgmt-tls-'));
});
beforeEach(() => sim.stats.reset());
afterEach(async () => {
  await Promise.all(open.splice(0).map(async (c) => (await c.signOut().catch(() => undefined), c.close())));
});
afterAll(async () => {
  await sim.close();
  rmSync(dir, { recursive: true, force: true });
});

const client = (spec: ClientSpec = {}) => {
  const t = makeClient(sim, spec);
  open.push(t.client);
  return t.client;
};

describe('inspectCertificate', () => {
  it('shows the simulator certificate for comparison', async () => {
    const info = await inspectCertificate('127.0.0.1', sim.oauthPort);
    expect(info).toMatchObject({ host: '127.0.0.1', port: sim.oauthPort, fingerprint256: sim.fingerprint256, selfSigned: true, trustedBySystem: false, subject: expect.stringContaining('CN=mgmt-node.local') });
    expect(info.altNames).toContain('IP Address:127.0.0.1');
    expect((await probeCertificate('127.0.0.1', sim.basicPort)).pem.trim()).toBe(sim.certificatePem.trim());
    expect(sim.stats.requests).toEqual([]); // nothing was sent
  });
});

describe('pinned', () => {
  it('the pinned certificate is accepted on both ports', async () => {
    expect((await client().signIn()).state).toBe('signed-in');
    expect((await client({ authMode: 'basic' }).signIn()).state).toBe('signed-in');
  });

  it('no pin yet: tls.untrusted with the certificate to compare, nothing sent', async () => {
    const e = await failure(client({ tls: { mode: 'pinned' } }).signIn());
    expect(e).toMatchObject({ code: 'tls.untrusted', details: { reason: 'not-pinned' } });
    expect((e.details!.certificate as CertificateInfo).fingerprint256).toBe(sim.fingerprint256);
    expect(sim.stats.requests).toEqual([]);
  });
});

describe('system', () => {
  it('the unknown self-signed certificate is refused with tls.untrusted carrying it; no credentials leave', async () => {
    const e = await failure(client({ tls: { mode: 'system' } }).signIn());
    expect(e).toMatchObject({ code: 'tls.untrusted', hint: 'Compare the fingerprint with the node’s and trust it, or choose the CA file.' });
    expect(e.message).toMatch(/not trusted: it is self-signed/);
    expect(e.details!.certificate).toMatchObject({ fingerprint256: sim.fingerprint256, selfSigned: true, trustedBySystem: false, port: sim.oauthPort });
    expect(sim.stats.requests).toEqual([]);
  });

  it('the connection test fails the same way (the UI opens the trust dialog)', async () => {
    const e = await failure(client({ authMode: 'basic', tls: { mode: 'system' } }).test());
    expect(e).toMatchObject({ code: 'tls.untrusted', details: { certificate: { fingerprint256: sim.fingerprint256, port: sim.basicPort } } });
  });
});

describe('custom-ca', () => {
  it('the simulator certificate as CA works (by IP and by name)', async () => {
    const caPem = sim.certificatePem;
    expect((await client({ tls: { mode: 'custom-ca', caPem } }).signIn()).state).toBe('signed-in');
    expect((await client({ authMode: 'basic', host: 'localhost', tls: { mode: 'custom-ca', caPem } }).signIn()).state).toBe('signed-in');
  });

  it('another CA does not vouch for the node: tls.untrusted', async () => {
    const e = await failure(client({ tls: { mode: 'custom-ca', caPem: (await makeCert()).cert } }).signIn());
    expect(e).toMatchObject({ code: 'tls.untrusted', details: { certificate: { fingerprint256: sim.fingerprint256 } } });
  });

  it('a CA of a store that was never read (legacy path only) is tls.ca_file, asking for the file again', async () => {
    const e = await failure(client({ tls: { mode: 'custom-ca', caFile: join(dir, 'missing.pem') } }).signIn());
    expect(e).toMatchObject({ code: 'tls.ca_file', hint: expect.stringContaining('choose the CA file') });
  });
});

describe('a rotated certificate', () => {
  it('is refused under the old pin with tls.pin_mismatch and a clear warning', async () => {
    const old = { fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem };
    expect((await client().signIn()).state).toBe('signed-in');
    await sim.rotateCertificate();
    expect(sim.fingerprint256).not.toBe(old.fingerprint256);
    sim.stats.reset();
    const e = await failure(client({ tls: { mode: 'pinned', ...old } }).signIn());
    expect(e).toMatchObject({ code: 'tls.pin_mismatch', details: { expected: old.fingerprint256, actual: sim.fingerprint256, certificate: { fingerprint256: sim.fingerprint256 } } });
    expect(e.message).toMatch(/^The certificate of 127\.0\.0\.1 changed since you trusted it\..*could also be an attack/);
    expect(sim.stats.requests).toEqual([]);
    // Trusting the new certificate (what the trust dialog does) works again.
    expect((await client({ tls: { mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem } }).signIn()).state).toBe('signed-in');
  });
});
