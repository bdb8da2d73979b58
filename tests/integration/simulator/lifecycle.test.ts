import { X509Certificate } from 'node:crypto';
import { connect } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOGIN_PAGE, SimClock, startMgmtSimulator } from '@northbound/simulators/testing';
import { startHarness, type Harness } from './harness';

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ seedOrganizations: 3, seedDevices: 4 });
});
afterAll(async () => {
  await h.close();
});

/** The certificate the listener presents, verified against `ca` (so a rotated certificate fails). */
function presented(port: number, ca: string): Promise<X509Certificate> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, ca }, () => {
      const cert = socket.getPeerX509Certificate();
      socket.end();
      if (cert) resolve(cert);
      else reject(new Error('no peer certificate'));
    });
    socket.once('error', reject);
  });
}

describe('simulator lifecycle', () => {
  it('listens on two loopback HTTPS ports and describes itself for `northbound simulate`', () => {
    const { sim } = h;
    expect(sim.basicUrl).toBe(`https://127.0.0.1:${sim.basicPort}`);
    expect(sim.oauthUrl).toBe(`https://127.0.0.1:${sim.oauthPort}`);
    expect(sim.basicPort).not.toBe(sim.oauthPort);
    expect(sim.users.map((u) => [u.username, u.role])).toEqual([
      ['admin', 'admin'],
      ['operator', 'operator'],
      ['viewer', 'viewer'],
    ]);
    for (const u of sim.users) expect(u.password).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(sim.bootstrapClient.clientId).toMatch(/^[0-9a-f-]{36}$/);
    expect(sim.bootstrapClient.clientSecret).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(sim.describe()).toEqual({
      mgmt: { basicUrl: sim.basicUrl, oauthUrl: sim.oauthUrl, fingerprint256: sim.fingerprint256 },
      users: sim.users,
      bootstrapClient: sim.bootstrapClient,
    });
    expect(JSON.parse(JSON.stringify(sim.describe()))).toEqual(sim.describe());
  });

  it('seeds the bootstrap admin client of MN-2', () => {
    const c = h.sim.getClient(h.sim.bootstrapClient.clientId);
    expect(c?.name).toBe('bootstrap-admin');
    expect(c?.allowed_grant_types).toEqual(['password', 'refresh_token', 'client_credentials']);
    expect(c).not.toHaveProperty('client_secret');
  });

  it('presents a self-signed certificate for mgmt-node.local with SANs localhost and 127.0.0.1', async () => {
    const cert = await presented(h.sim.basicPort, h.sim.certificatePem);
    expect(cert.subject).toContain('CN=mgmt-node.local');
    expect(cert.subjectAltName).toContain('DNS:localhost');
    expect(cert.subjectAltName).toContain('IP Address:127.0.0.1');
    expect(cert.fingerprint256).toBe(h.sim.fingerprint256);
    expect(h.sim.fingerprint256).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(new X509Certificate(h.sim.certificatePem).fingerprint256).toBe(h.sim.fingerprint256);
    expect((await presented(h.sim.oauthPort, h.sim.certificatePem)).fingerprint256).toBe(h.sim.fingerprint256);
  });

  it('rotateCertificate puts a new certificate on both listeners', async () => {
    const before = { fp: h.sim.fingerprint256, pem: h.sim.certificatePem };
    await h.sim.rotateCertificate();
    expect(h.sim.fingerprint256).not.toBe(before.fp);
    expect(h.sim.certificatePem).not.toBe(before.pem);
    expect(h.sim.describe().mgmt.fingerprint256).toBe(h.sim.fingerprint256);
    for (const port of [h.sim.basicPort, h.sim.oauthPort]) {
      expect((await presented(port, h.sim.certificatePem)).fingerprint256).toBe(h.sim.fingerprint256);
      await expect(presented(port, before.pem)).rejects.toThrow(/self[- ]signed|unable to verify|certificate/i);
    }
    const page = await h.call('basic', 'GET', '/');
    expect(page.status).toBe(200);
  });

  it('answers the web login page at / on both ports (MN-26)', async () => {
    for (const port of ['basic', 'oauth'] as const) {
      const r = await h.call(port, 'GET', '/', { headers: { accept: 'text/html' } });
      expect(r.status).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/html/);
      expect(r.text).toBe(LOGIN_PAGE);
    }
  });

  it('with faults.loginPage every API path answers 200 text/html', async () => {
    h.sim.faults.loginPage = true;
    try {
      const admin = h.user('admin');
      const probes = [
        await h.call('basic', 'GET', '/mgmt/organization/orgs', { basic: admin }),
        await h.call('basic', 'GET', '/api/config/nms/provider/organizations/organization'),
        await h.call('oauth', 'POST', '/auth/token', { json: {} }),
        await h.call('oauth', 'GET', '/mgmt/sdwan/workflow/devices', { bearer: 'whatever' }),
      ];
      for (const r of probes) {
        expect(r.status).toBe(200);
        expect(r.headers['content-type']).toMatch(/^text\/html/);
        expect(r.text).toContain('<form');
      }
    } finally {
      h.sim.faults.loginPage = false;
    }
    expect((await h.call('oauth', 'POST', '/auth/token', { json: {} })).status).toBe(400);
  });

  it('records every request in stats', async () => {
    h.sim.stats.reset();
    expect(h.sim.stats.requests).toEqual([]);
    await h.call('basic', 'GET', '/mgmt/organization/orgs?limit=1', { basic: h.user('viewer') });
    await h.call('basic', 'GET', '/mgmt/organization/orgs');
    await h.call('oauth', 'POST', '/auth/revoke');
    expect(h.sim.stats.requests).toEqual([
      { method: 'GET', path: '/mgmt/organization/orgs', status: 200, port: 'basic' },
      { method: 'GET', path: '/mgmt/organization/orgs', status: 401, port: 'basic' },
      { method: 'POST', path: '/auth/revoke', status: 400, port: 'oauth' },
    ]);
    expect(h.sim.stats.count('GET', '/mgmt/')).toBe(2);
    expect(h.sim.stats.count('post', '/auth')).toBe(1);
    expect(h.sim.stats.count('*', '/')).toBe(3);
    h.sim.stats.reset();
    expect(h.sim.stats.count('*', '/')).toBe(0);
  });

  it('refuses non-loopback hosts', async () => {
    await expect(startMgmtSimulator({ host: '0.0.0.0' })).rejects.toThrow(/loopback/);
    await expect(startMgmtSimulator({ host: '192.168.1.10' })).rejects.toThrow(/loopback/);
  });

  it('fails with EADDRINUSE when a port is taken, and closes idempotently', async () => {
    const err = await startMgmtSimulator({ basicPort: h.sim.oauthPort }).catch((e: NodeJS.ErrnoException) => e);
    expect((err as NodeJS.ErrnoException).code).toBe('EADDRINUSE');
    const other = await startMgmtSimulator({ clock: new SimClock(Date.UTC(2031, 0, 1)), seedOrganizations: 1, seedDevices: 0, users: [{ username: 'u', password: 'p', role: 'admin' }] });
    expect(other.users).toEqual([{ username: 'u', password: 'p', role: 'admin' }]);
    await Promise.all([other.close(), other.close()]);
    await expect(stillListening(other.basicPort)).resolves.toBe(false);
  });
});

/** Whether anything still accepts TCP connections on the port. */
function stillListening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = connect({ host: '127.0.0.1', port, rejectUnauthorized: true });
    s.once('secureConnect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code !== 'ECONNREFUSED'));
  });
}
