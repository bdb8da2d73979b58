/** CVE aggregation (bulk rows and per-machine entities) and the Machine → HostRecord mapping. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HostRecord } from '../../../shared/model/edr';
import { CveAggregator, cvssOf, enumValue, factsFromVulnerabilities, hostRecord, platformOf } from '../../../electron/edr/defender/mapping';
import { DefenderOnboardingStatus } from '../../../shared/model/edr';

const row = (deviceId: string, cveId: string | null, cvssScore: unknown, softwareName = 'chrome') => ({ id: `${deviceId}_${softwareName}_${cveId}`, deviceId, softwareVendor: 'google', softwareName, softwareVersion: '1.0', cveId, cvssScore });

describe('CveAggregator (SoftwareVulnerabilitiesByMachine rows)', () => {
  it('counts unique CVEs per device, critical at CVSS >= 9.0, the highest CVSS, skipping rows without a CVE', () => {
    const agg = new CveAggregator();
    for (const r of [
      row('AAA', 'CVE-2024-1', 9.0),
      row('aaa', 'CVE-2024-1', 7.5, 'edge'), // same CVE in a second product: counted once, at its highest score
      row('aaa', 'cve-2024-2', '8.9'), // CVSS as a string, CVE id in another case
      row('aaa', 'CVE-2024-3', null), // no score: counted, not critical, no max
      row('aaa', null, null, 'notepad'), // clean software
      row('bbb', 'CVE-2024-9', 10),
      { deviceId: 'ccc' },
      'junk',
    ])
      agg.add(r);
    // The list: highest CVSS first, each CVE once (upper case), severity from the score where the row names none.
    expect(agg.factsFor('aaa')).toEqual({
      cveCount: 3,
      criticalCveCount: 1,
      maxCvss: 9,
      vulnerabilities: [
        { cveId: 'CVE-2024-1', cvss: 9, severity: 'Critical' },
        { cveId: 'CVE-2024-2', cvss: 8.9, severity: 'High' },
        { cveId: 'CVE-2024-3', cvss: null, severity: null },
      ],
    });
    expect(agg.factsFor('BBB')).toEqual({ cveCount: 1, criticalCveCount: 1, maxCvss: 10, vulnerabilities: [{ cveId: 'CVE-2024-9', cvss: 10, severity: 'Critical' }] });
    expect(agg.factsFor('nope')).toEqual({ cveCount: 0, criticalCveCount: 0, maxCvss: null, vulnerabilities: [] });
    expect(agg).toMatchObject({ rows: 8, skipped: 3, devices: 2 });
  });

  it('keeps the severity Defender names, else rates the CVSS score (v3 ranges)', () => {
    const agg = new CveAggregator();
    agg.add({ ...row('d', 'CVE-1', 5.0), vulnerabilitySeverityLevel: 'High' });
    agg.add({ ...row('d', 'CVE-2', 7.0), vulnerabilitySeverityLevel: 'bogus' });
    agg.add(row('d', 'CVE-3', 4.0));
    agg.add(row('d', 'CVE-4', 3.9));
    agg.add(row('d', 'CVE-5', 0));
    expect(agg.factsFor('d').vulnerabilities).toEqual([
      { cveId: 'CVE-2', cvss: 7, severity: 'High' },
      { cveId: 'CVE-1', cvss: 5, severity: 'High' },
      { cveId: 'CVE-3', cvss: 4, severity: 'Medium' },
      { cveId: 'CVE-4', cvss: 3.9, severity: 'Low' },
      { cveId: 'CVE-5', cvss: 0, severity: null },
    ]);
  });

  it('8.99 is not critical, 9 is', () => {
    const agg = new CveAggregator();
    agg.add(row('d', 'CVE-1', 8.99));
    agg.add(row('d', 'CVE-2', 9));
    expect(agg.factsFor('d').criticalCveCount).toBe(1);
  });

  it('bulk rows and the per-machine list of the same CVEs give the same facts (any order, any duplication)', () => {
    const cve = fc.record({ id: fc.integer({ min: 1, max: 30 }).map((n) => `CVE-2024-${n}`), score: fc.option(fc.integer({ min: 0, max: 100 }).map((n) => n / 10)) });
    fc.assert(
      fc.property(fc.array(fc.tuple(cve, fc.constantFrom('chrome', 'edge', 'java')), { maxLength: 40 }), (entries) => {
        const agg = new CveAggregator();
        for (const [c, sw] of entries) agg.add(row('dev', c.id, c.score, sw));
        // The per-machine endpoint lists each CVE once with its score (the highest one seen).
        const best = new Map<string, number | null>();
        for (const [c] of entries) {
          const prev = best.get(c.id);
          if (prev === undefined || (c.score !== null && (prev === null || c.score > prev))) best.set(c.id, c.score);
        }
        const entities = [...best].map(([id, cvssV3]) => ({ id, name: id, cvssV3 }));
        expect(agg.factsFor('dev')).toEqual(factsFromVulnerabilities(entities));
        expect(agg.factsFor('dev').cveCount).toBe(best.size);
      }),
    );
  });
});

describe('mapping', () => {
  it.each([
    ['Windows10', 'Windows'],
    ['Windows11', 'Windows'],
    ['WindowsServer2022', 'Windows'],
    ['windows 7', 'Windows'],
    ['macOS', 'Mac'],
    ['MacOs', 'Mac'],
    ['OSX', 'Mac'],
    ['Linux', 'Linux'],
    ['Ubuntu', 'Linux'],
    ['RedHatEnterpriseLinux', 'Linux'],
    ['iOS', 'Other'],
    ['Android', 'Other'],
    ['', 'Other'],
    [null, 'Other'],
  ])('platformOf(%s) = %s', (os, want) => expect(platformOf(os)).toBe(want));

  it('enum values are read case-insensitively; unknown values become null', () => {
    expect(enumValue(DefenderOnboardingStatus.options, 'onboarded')).toBe('Onboarded');
    expect(enumValue(DefenderOnboardingStatus.options, 'Passive')).toBeNull();
    expect(enumValue(DefenderOnboardingStatus.options, 3)).toBeNull();
  });

  it('cvssOf accepts numbers and numeric strings within 0..10', () => {
    expect([cvssOf(9.8), cvssOf('6.2'), cvssOf(''), cvssOf('x'), cvssOf(11), cvssOf(null)]).toEqual([9.8, 6.2, null, null, null, null]);
  });

  it('a Machine becomes a valid HostRecord', () => {
    const m = {
      id: '1E5BC9D7E413DDD7902C2932E418702B84D0CC07',
      computerDnsName: 'mymachine1.contoso.com',
      lastSeen: '2018-08-02T14:55:03.7791856Z',
      osPlatform: 'Windows11',
      version: '23H2',
      healthStatus: 'Active',
      riskScore: 'Low',
      exposureLevel: 'Medium',
      defenderAvStatus: 'Updated',
      onboardingStatus: 'onboarded',
    };
    const h = hostRecord(m, { cveCount: 2, criticalCveCount: 1, maxCvss: 9.1 }, { connectorId: 'conn-1', tenantId: 'tenant-1' });
    expect(HostRecord.parse(h)).toEqual(h);
    expect(h).toMatchObject({ vendor: 'defender', tenantId: 'conn-1', customerId: 'tenant-1', hostId: '1e5bc9d7e413ddd7902c2932e418702b84d0cc07', hostname: 'mymachine1.contoso.com', platform: 'Windows', osVersion: '23H2', lastSeen: '2018-08-02T14:55:03.779Z' });
    expect(h.defender).toMatchObject({ riskScore: 'Low', exposureLevel: 'Medium', healthStatus: 'Active', avStatus: 'Updated', onboardingStatus: 'Onboarded', criticalCveCount: 1 });
  });

  it('a sparse Machine still maps (hostname falls back to the id, unknowns are null)', () => {
    const h = hostRecord({ id: 'abc', computerDnsName: null, osPlatform: 'Android', osBuild: 14 }, { cveCount: 0, criticalCveCount: 0, maxCvss: null }, { connectorId: 'c', tenantId: 't' });
    expect(HostRecord.parse(h)).toEqual(h);
    expect(h).toMatchObject({ hostname: 'abc', platform: 'Other', osVersion: '14', lastSeen: null });
    expect(h.defender).toMatchObject({ riskScore: null, avStatus: null, onboardingStatus: null });
  });
});
