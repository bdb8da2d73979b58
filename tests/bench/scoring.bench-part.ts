/**
 * Bench part: Defender scoring throughput in hosts per second. `npm run bench` (wired by the
 * lead) calls `benchScoring(n)`. Hosts are generated up front from a seeded PRNG (deterministic,
 * varied over every indicator); only the scoring is timed, with the tenant's `RiskConfig` as a
 * connector passes it (the compiled tables come from the per-config cache).
 */
import type { DefenderFacts } from '../../shared/model/edr';
import { DefenderAvStatus, DefenderExposureLevel, DefenderHealthStatus, DefenderOnboardingStatus, DefenderRiskScore } from '../../shared/model/edr';
import { defaultRiskConfig, scoreDefenderHost } from '../../shared/risk/index';

export const BENCH_NOW = Date.UTC(2025, 5, 1, 12);
const DAY = 86_400_000;

/** mulberry32: small, fast, deterministic. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/** `n` varied Defender devices, the same for the same seed. About 1 in 20 fields is null. */
export function generateDefenderFacts(n: number, seed = 0x5eed): DefenderFacts[] {
  const rand = seededRandom(seed);
  const pick = <T>(values: readonly T[]): T | null => (rand() < 0.05 ? null : (values[Math.floor(rand() * values.length)] as T));
  const out: DefenderFacts[] = new Array<DefenderFacts>(n);
  for (let i = 0; i < n; i++) {
    const cveCount = Math.floor(rand() * 40);
    const criticalCveCount = rand() < 0.6 ? 0 : Math.floor(rand() * Math.min(cveCount + 1, 12));
    out[i] = {
      riskScore: pick(DefenderRiskScore.options),
      exposureLevel: pick(DefenderExposureLevel.options),
      healthStatus: pick(DefenderHealthStatus.options),
      avStatus: pick(DefenderAvStatus.options),
      onboardingStatus: pick(DefenderOnboardingStatus.options),
      lastSeen: rand() < 0.03 ? null : new Date(BENCH_NOW - Math.floor(rand() * 30 * DAY)).toISOString(),
      criticalCveCount,
      cveCount,
      maxCvss: cveCount === 0 ? null : criticalCveCount > 0 ? 9 + rand() : Math.round(rand() * 89) / 10,
    };
  }
  return out;
}

export async function benchScoring(n: number): Promise<{ hosts: number; ms: number; hostsPerSecond: number }> {
  const hosts = generateDefenderFacts(n);
  const config = defaultRiskConfig;
  // Warm-up so the JIT has compiled the scoring before timing.
  const warm = Math.min(n, 20_000);
  for (let i = 0; i < warm; i++) scoreDefenderHost(hosts[i] as DefenderFacts, config, BENCH_NOW);

  let checksum = 0;
  const t0 = performance.now();
  for (let i = 0; i < n; i++) checksum += scoreDefenderHost(hosts[i] as DefenderFacts, config, BENCH_NOW).score;
  const ms = performance.now() - t0;
  if (!Number.isFinite(checksum)) throw new Error('scoring produced a non-finite score');
  const elapsed = Math.max(ms, 0.001);
  return { hosts: n, ms, hostsPerSecond: Math.round((n / elapsed) * 1000) };
}
