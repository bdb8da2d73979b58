/**
 * The what-if's batch scoring (`prepareDefenderHosts` + `scorePreparedDefender`) against the one
 * main stores with (`scoreDefenderHost`): the same score to the last bit and the same band, for
 * any facts (values the tables lack, unreadable times, CVE lists) under any configuration.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RiskBand, type DefenderFacts } from '../../../shared/model/edr';
import { bandFor, defaultRiskConfig, parseRiskConfig, prepareDefenderHosts, scoreDefenderHost, scorePreparedDefender, type RiskConfig } from '../../../shared/risk/index';
import { NOW, arbConfig, arbFacts, cleanFacts } from './fixtures';

/** A value the vendor may add after this code was written (the tables score it 0). */
const unlisted = <T,>(arb: fc.Arbitrary<T>) => fc.oneof({ weight: 5, arbitrary: arb }, { weight: 1, arbitrary: fc.constant('SomethingNew' as unknown as T) });

const arbTime = fc.oneof(
  fc.constant(null),
  fc.constant('not a date'),
  fc.constant('2025-05-20'),
  fc.integer({ min: -2 * 86_400_000, max: 90 * 86_400_000 }).map((age) => new Date(NOW - age).toISOString()),
  // Defender's seven fraction digits, and an offset instead of Z (Date.parse's path).
  fc.integer({ min: 0, max: 40 * 86_400_000 }).map((age) => new Date(NOW - age).toISOString().replace(/\.(\d{3})Z$/, '.$11234Z')),
  fc.integer({ min: 0, max: 40 * 86_400_000 }).map((age) => new Date(NOW - age).toISOString().replace(/Z$/, '+02:00')),
);

const arbVulnerabilities = fc.option(
  fc.array(fc.record({ cveId: fc.constant('CVE-2025-0001'), cvss: fc.option(fc.double({ min: 0, max: 10, noNaN: true }), { nil: null }), severity: fc.constant(null) }), { maxLength: 30 }),
  { nil: undefined },
);

const arbAnyFacts: fc.Arbitrary<DefenderFacts> = fc
  .tuple(arbFacts, arbTime, arbVulnerabilities, fc.constantFrom(0, 0.5, 3.7), unlisted(fc.constant(null)), unlisted(fc.constant(null)), fc.boolean())
  .map(([f, lastSeen, vulnerabilities, fraction, risk, health, odd]) => ({
    ...f,
    lastSeen,
    criticalCveCount: f.criticalCveCount + fraction,
    ...(odd && risk !== null ? { riskScore: risk as DefenderFacts['riskScore'] } : {}),
    ...(odd && health !== null ? { healthStatus: health as DefenderFacts['healthStatus'] } : {}),
    ...(vulnerabilities ? { vulnerabilities } : {}),
  }));

/** arbConfig with any band edges and critical CVSS threshold. */
const arbAnyConfig: fc.Arbitrary<RiskConfig> = fc
  .tuple(
    fc.oneof(fc.constant(defaultRiskConfig), arbConfig),
    fc.uniqueArray(fc.integer({ min: 0, max: 99 }), { minLength: 4, maxLength: 4 }).map((a) => [...a].sort((x, y) => x - y)),
    fc.constantFrom(0, 4.5, 7, 9, 9.8, 10),
  )
  .map(([c, bands, criticalCvss]) => {
    const parsed = parseRiskConfig({ ...c, bands, thresholds: { ...c.thresholds, criticalCvss } });
    if (!parsed.ok) throw parsed.error;
    return parsed.value;
  });

describe('prepared Defender scoring (the what-if)', () => {
  it('gives every host the score and band scoreDefenderHost gives', () => {
    fc.assert(
      fc.property(fc.array(arbAnyFacts, { minLength: 1, maxLength: 40 }), fc.array(arbAnyConfig, { minLength: 1, maxLength: 3 }), (hosts, configs) => {
        const prepared = prepareDefenderHosts(hosts);
        // One preparation, scored under several configurations (as the slider moves).
        for (const config of configs) {
          const { score, band } = scorePreparedDefender(prepared, config, NOW);
          hosts.forEach((facts, i) => {
            const expected = scoreDefenderHost(facts, config, NOW);
            expect(score[i]).toBe(expected.score);
            expect(RiskBand.options[band[i]!]).toBe(expected.band);
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it('counts a CVE list against each configuration’s own threshold', () => {
    const host = cleanFacts({ criticalCveCount: 0, vulnerabilities: [7.5, 9.1, 9.9].map((cvss) => ({ cveId: 'CVE-2025-0001', cvss, severity: null })) });
    const prepared = prepareDefenderHosts([host]);
    const at = (criticalCvss: number) => {
      const parsed = parseRiskConfig({ ...defaultRiskConfig, thresholds: { ...defaultRiskConfig.thresholds, criticalCvss } });
      if (!parsed.ok) throw parsed.error;
      return scorePreparedDefender(prepared, parsed.value, NOW).score[0];
    };
    // Three critical CVEs at 7.0, two at 9.0, none above 10: three different scores, each main's.
    expect(new Set([at(7), at(9), at(10)]).size).toBe(3);
    expect(at(9)).toBe(scoreDefenderHost(host, defaultRiskConfig, NOW).score);
    expect(at(10)).toBe(scoreDefenderHost({ ...host, vulnerabilities: [] }, defaultRiskConfig, NOW).score);
  });

  it('bands by the configuration’s edges', () => {
    const prepared = prepareDefenderHosts([cleanFacts({ riskScore: 'High', exposureLevel: 'High', avStatus: 'Disabled' })]);
    const { score, band } = scorePreparedDefender(prepared, defaultRiskConfig, NOW);
    expect(score[0]).toBeGreaterThan(0);
    expect(RiskBand.options[band[0]!]).toBe(bandFor(score[0]!, defaultRiskConfig.bands));
  });
});
