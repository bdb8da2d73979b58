/**
 * Faults survived with every host present: 429 bursts (Retry-After honoured), 5xx, connection
 * resets, malformed JSON, slow answers past the timeout, tokens expiring mid-cycle (one refresh
 * for all callers) and before the next cycle (refreshed ahead, no 401); bounded retries otherwise.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/model/errors';
import type { DefenderSimulator } from '@northbound/simulators/testing/defender';
import { defaultFaults } from '@northbound/simulators/testing/defender';
import { MACHINES, PER_MACHINE, calls, connectorFor, startSim, tenant } from './harness';

const RATE_SCALE = 600;
const t = tenant({ hosts: 150, seed: 5 });
let sim: DefenderSimulator;

beforeAll(async () => {
  sim = await startSim({ tenants: [t], rateScale: RATE_SCALE });
});
afterAll(() => sim.close());
beforeEach(() => {
  Object.assign(sim.faults, defaultFaults());
  sim.stats.reset();
});

async function pollWith(over: Parameters<typeof connectorFor>[2] = {}) {
  const c = connectorFor(sim, t, { rateScale: RATE_SCALE, ...over });
  try {
    const hosts = await c.poll();
    return { hosts, report: c.lastReport! };
  } finally {
    await c.close();
  }
}

const allIds = (hosts: { hostId: string }[]) => new Set(hosts.map((h) => h.hostId)).size;

describe('faults during a cycle', () => {
  it('a burst of 429s: Retry-After honoured, every host present', async () => {
    Object.assign(sim.faults, { throttleNext: 4, throttleRetryAfterSec: 2 });
    const started = performance.now();
    const { hosts, report } = await pollWith();
    expect(allIds(hosts)).toBe(150);
    expect(report.throttled).toBe(4);
    expect(sim.stats.throttled).toBe(4);
    // 4 × 2 vendor seconds at ×600 = 4 × 3.3 ms at least.
    expect(performance.now() - started).toBeGreaterThanOrEqual(13);
  });

  it('429 bursts on the per-device path', async () => {
    Object.assign(sim.faults, { scope: 'vulnerabilities', throttleNext: 15, throttleRetryAfterSec: 1 });
    const { hosts, report } = await pollWith({ vulnerabilitySource: 'per-machine' });
    expect(allIds(hosts)).toBe(150);
    expect(report.throttled).toBe(15);
    expect(sim.stats.rateLimited).toBe(0);
  });

  it('5xx, connection resets and malformed JSON are retried with backoff', async () => {
    Object.assign(sim.faults, { serverErrorNext: 2, resetNext: 1 });
    const first = await pollWith();
    expect(allIds(first.hosts)).toBe(150);
    expect(first.report.retries).toBe(3);

    sim.stats.reset();
    Object.assign(sim.faults, { malformedNext: 2, serverErrorNext: 1, serverErrorStatus: 502 });
    const second = await pollWith();
    expect(allIds(second.hosts)).toBe(150);
    expect(second.report.retries).toBe(3);
    expect(second.hosts.map((h) => h.defender)).toEqual(first.hosts.map((h) => h.defender));
  });

  it('mixed faults on the per-device path still score every host', async () => {
    Object.assign(sim.faults, { scope: 'vulnerabilities', serverErrorNext: 6, resetNext: 4, malformedNext: 4, throttleNext: 6 });
    const { hosts, report } = await pollWith({ vulnerabilitySource: 'per-machine' });
    expect(allIds(hosts)).toBe(150);
    expect(report.retries).toBe(14);
    expect(report.throttled).toBe(6);
  });

  it('slow answers past the timeout are retried', async () => {
    Object.assign(sim.faults, { slowNext: 1, slowMs: 1_500 });
    const { hosts, report } = await pollWith({ timeoutMs: 700 });
    expect(allIds(hosts)).toBe(150);
    expect(report.retries).toBeGreaterThanOrEqual(1);
    expect(sim.faults.slowNext).toBe(0);
  });

  it('gives up after the bounded attempts with a clear error', async () => {
    Object.assign(sim.faults, { scope: 'machines', serverErrorNext: 100 });
    const err = await pollWith({ retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } }).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('edr.defender.server_error');
    expect(calls(sim, MACHINES)).toBe(3);
  });

  it('an endless 429 storm ends after the bounded throttle retries', async () => {
    Object.assign(sim.faults, { scope: 'machines', throttleNext: 100, throttleRetryAfterSec: 1 });
    const err = await pollWith({ retry: { maxThrottleRetries: 3 } }).catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('edr.defender.throttled');
    expect(calls(sim, MACHINES)).toBe(4);
  });

  it('a Retry-After beyond the cap stops the cycle instead of hanging', async () => {
    Object.assign(sim.faults, { throttleNext: 1, throttleRetryAfterSec: 3_600 });
    const err = await pollWith().catch((e: unknown) => e);
    expect(isAppError(err) && err.code).toBe('edr.defender.throttled');
    expect(isAppError(err) && err.details?.retryAfterSec).toBe(3_600);
  });
});

describe('tokens', () => {
  it('a token revoked mid-cycle: one refresh shared by the concurrent callers, every host present', async () => {
    Object.assign(sim.faults, { expireTokensAfterCalls: 30, delayMs: 2 });
    const { hosts, report } = await pollWith({ vulnerabilitySource: 'per-machine' });
    expect(allIds(hosts)).toBe(150);
    expect(sim.stats.statuses['401']).toBeGreaterThanOrEqual(1);
    expect(sim.stats.tokensIssued).toBe(2);
    expect(report.tokensFetched).toBe(2);
    expect(calls(sim, PER_MACHINE)).toBeGreaterThan(hosts.filter((h) => h.defender!.onboardingStatus === 'Onboarded').length);
  });

  it('a cached token is reused, and refreshed ahead of expiry (5 min) without any 401', async () => {
    const c = connectorFor(sim, t, { rateScale: RATE_SCALE });
    try {
      await c.poll();
      await c.poll();
      expect(sim.stats.tokensIssued).toBe(1);
      sim.clock.advance(55 * 60_000 + 1_000); // 3599 s token: less than 5 min left
      await c.poll();
      expect(sim.stats.tokensIssued).toBe(2);
      expect(sim.stats.statuses['401'] ?? 0).toBe(0);
      sim.clock.advance(2 * 3_600_000); // past expiry altogether
      await c.poll();
      expect(sim.stats.tokensIssued).toBe(3);
      expect(sim.stats.statuses['401'] ?? 0).toBe(0);
    } finally {
      await c.close();
    }
  });

  it('a token refused twice in a row is an error, not a loop', async () => {
    const c = connectorFor(sim, t, { rateScale: RATE_SCALE });
    try {
      await c.poll();
      // Every API call from now on finds its token revoked: the refreshed token is refused too.
      sim.faults.rejectAllTokens = true;
      const err = await c.poll().catch((e: unknown) => e);
      expect(isAppError(err) && err.code).toBe('edr.defender.unauthorized');
      // One refresh for the 401, then the error: no loop of token requests.
      expect(sim.stats.tokensIssued).toBe(2);
    } finally {
      await c.close();
    }
  });
});
