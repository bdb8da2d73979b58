/** `northbound edr poll --once` as an operator runs it, against the Defender and the Falcon simulators. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { startFalconSimulator, type FalconSimulator } from '@northbound/simulators/testing/falcon';
import { runCli } from '../../support/cli';

const tenant = defenderTenant({ hosts: 40, seed: 3 });
let sim: DefenderSimulator;
let falcon: FalconSimulator;
let dir: string;
let caFile: string;
let falconCa: string;

beforeAll(async () => {
  sim = await startDefenderSimulator({ tenants: [tenant] });
  falcon = await startFalconSimulator({ regions: ['us-1', 'eu-1'], clients: [{ region: 'eu-1', tenant: { hosts: 60, seed: 4 } }] });
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-edr-cli-'));
  caFile = path.join(dir, 'sim-ca.pem');
  writeFileSync(caFile, sim.certificatePem);
  falconCa = path.join(dir, 'falcon-ca.pem');
  writeFileSync(falconCa, falcon.certificatePem);
});
afterAll(async () => {
  await sim?.close();
  await falcon?.close();
  rmSync(dir, { recursive: true, force: true });
});


const base = () => ['edr', 'poll', '--once', '--vendor', 'defender', '--tenant-id', tenant.tenantId, '--client-id', tenant.clientId, '--client-secret-env', 'NB_TEST_SECRET', '--poll-interval', '30', '--api-url', sim.apiUrl, '--idp-url', sim.idpUrl, '--ca-file', caFile];

describe('northbound edr poll', () => {
  it('prints one JSON line per scored host and a summary line', async () => {
    const r = await runCli(base(), { NB_TEST_SECRET: tenant.clientSecret });
    expect(r.stderr).not.toContain(tenant.clientSecret);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const hosts = lines.filter((l) => 'hostId' in l);
    const summary = lines.at(-1)!.summary as { hosts: number; scored: number; bands: Record<string, number> };
    expect(summary.hosts).toBe(40);
    expect(hosts).toHaveLength(summary.scored);
    expect(summary.scored).toBeGreaterThan(0);
    for (const h of hosts) {
      expect(h).toMatchObject({ customer: tenant.tenantId, platform: expect.any(String), band: expect.any(String) });
      expect(h.score as number).toBeGreaterThanOrEqual(0);
      expect(h.score as number).toBeLessThanOrEqual(100);
      expect(Array.isArray(h.contributions)).toBe(true);
    }
    expect(Object.values(summary.bands).reduce((a, b) => a + b, 0)).toBe(summary.scored);
  });

  it('refuses a secret on the command line and explains a wrong one', async () => {
    const empty = await runCli(base(), { NB_TEST_SECRET: '' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toMatch(/NB_TEST_SECRET is empty/);
    const wrong = await runCli(base(), { NB_TEST_SECRET: 'not-the-secret-value' });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/7000215|secret/i);
    const badInterval = await runCli([...base().slice(0, -6), '--poll-interval', '5'], { NB_TEST_SECRET: tenant.clientSecret });
    expect(badInterval.code).toBe(2);
    // The form's sentence, pointing at the flag (not at the field's key).
    expect(badInterval.stderr).toContain("The poll interval is at least 10 minutes (the vendors' limits). (--poll-interval)");
    expect(badInterval.stderr).not.toMatch(/pollIntervalMinutes/);
    const badVendor = await runCli(base().map((a) => (a === 'defender' ? 'crowdstrike' : a)), { NB_TEST_SECRET: tenant.clientSecret });
    expect(badVendor.code).toBe(2);
    expect(badVendor.stderr).toContain('Choose a vendor: CrowdStrike Falcon or Microsoft Defender. (--vendor falcon or defender)');
  });

  it('polls a Falcon tenant: the vendor assessments mapped to risk, with both predefined profiles per host', async () => {
    const fc = falcon.clients[0]!;
    const args = (region: string) => ['edr', 'poll', '--once', '--vendor', 'falcon', '--tenant-id', fc.cid, '--client-id', fc.clientId, '--client-secret-env', 'NB_FALCON_SECRET', '--cloud-region', region, '--api-url', falcon.baseUrl('eu-1'), '--ca-file', falconCa];
    const r = await runCli(args('eu-1'), { NB_FALCON_SECRET: fc.clientSecret });
    expect(r.stderr).not.toContain(fc.clientSecret);
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    const hosts = lines.filter((l) => 'hostId' in l);
    expect(lines.at(-1)).toMatchObject({ summary: { vendor: 'falcon', hosts: 60, scored: 60, skipped: 0 } });
    expect(hosts).toHaveLength(60);
    let assessed = 0;
    for (const h of hosts) {
      expect(h).toMatchObject({ customer: fc.cid, profiles: { 'eip-profile-endpoint_security-crowdstrike': expect.any(Boolean), 'eip-profile-endpoint_security-software-crowdstrike': expect.any(Boolean) } });
      const overall = (h.contributions as Array<{ indicator: string; points: number }>).find((c) => c.indicator === 'overall');
      if (overall) {
        assessed += 1;
        expect(h.score).toBe(100 - overall.points);
      }
    }
    expect(assessed).toBeGreaterThan(40);
    // The tenant lives in eu-1: a connector set to us-1 is told so, with what to change.
    const wrong = await runCli(args('us-1'), { NB_FALCON_SECRET: fc.clientSecret });
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toMatch(/eu-1/);
    // The fix is named as the flag that makes it, not as the form's field.
    expect(wrong.stderr).toContain('Pass --cloud-region eu-1');
    expect(wrong.stderr).not.toContain('and save');
  });

  it('--summary prints only the summary line on stdout; the progress goes to stderr, a line per finished phase', async () => {
    const r = await runCli([...base(), '--summary'], { NB_TEST_SECRET: tenant.clientSecret });
    expect(r.code).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0]!)).toMatchObject({ summary: { vendor: 'defender', hosts: 40, scored: 40 } });
    // stderr is not a terminal here: plain lines, in the order of the cycle, no cursor movements.
    const progress = r.stderr.trim().split('\n');
    expect(progress[0]).toMatch(/^edr poll \(defender\): signing in… \(\d+\.\d s\)$/);
    const order = ['signed in', '40 devices listed', 'vulnerabilities read for 40 devices', 'done: 40 devices, 40 scored, 0 skipped in'];
    const at = order.map((t) => progress.findIndex((l) => l.startsWith(`edr poll (defender): ${t}`)));
    expect(at.every((i) => i > 0)).toBe(true);
    expect([...at].sort((a, b) => a - b)).toEqual(at);
    expect(r.stderr).not.toContain('\x1b[');

    const quiet = await runCli([...base(), '--summary', '--no-progress'], { NB_TEST_SECRET: tenant.clientSecret });
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    expect(quiet.stdout.trim().split('\n')).toHaveLength(1);
  });

  it('a certificate it cannot verify is explained in flags: --ca-file, with the fingerprint to compare', async () => {
    const noCa = base().slice(0, -2);
    const r = await runCli(noCa, { NB_TEST_SECRET: tenant.clientSecret });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/certificate of 127\.0\.0\.1:\d+ is not trusted: it is self-signed/);
    expect(r.stderr).toContain('Pass --ca-file with the PEM file of the CA that issued it');
    expect(r.stderr).toContain(sim.fingerprint256);
    // The window's words are not the command line's.
    expect(r.stderr).not.toMatch(/trust it|choose the CA file/i);
    expect(r.stderr).not.toMatch(/^\s+at /m);

    const otherCa = await runCli([...noCa, '--ca-file', falconCa], { NB_TEST_SECRET: tenant.clientSecret });
    expect(otherCa.code).toBe(1);
    expect(otherCa.stderr).toContain(`The CA in --ca-file ${falconCa} did not issue this certificate`);

    const notPem = path.join(dir, 'not-a-ca.pem');
    writeFileSync(notPem, 'hello');
    const bad = await runCli([...noCa, '--ca-file', notPem], { NB_TEST_SECRET: tenant.clientSecret });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('Give --ca-file the PEM file of the CA');
  });
});
