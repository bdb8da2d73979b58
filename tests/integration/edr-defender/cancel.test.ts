/** Cancellation: an AbortSignal ends a poll promptly, in flight or while paced, and no call follows. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isAppError } from '../../../shared/model/errors';
import { defaultFaults, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { until } from '../../support/until';
import { PER_MACHINE, calls, connectorFor, startSim, tenant } from './harness';

const t = tenant({ hosts: 300, seed: 11 });
/** Its own app, so the calls of the other tests do not count against its minute. */
const paced = tenant({ hosts: 300, seed: 12 });
let sim: DefenderSimulator;

beforeAll(async () => {
  // Documented limits, unscaled: after 50 per-device calls the connector must wait a minute.
  sim = await startSim({ tenants: [t, paced] });
});
afterAll(() => sim.close());
beforeEach(() => {
  Object.assign(sim.faults, defaultFaults());
  sim.stats.reset();
});

const cancelled = (e: unknown) => isAppError(e) && e.code === 'cancelled';

describe('poll cancellation', () => {
  it('an already aborted signal makes no call', async () => {
    const c = connectorFor(sim, t);
    const err = await c.poll({ signal: AbortSignal.abort() }).catch((e: unknown) => e);
    await c.close();
    expect(cancelled(err)).toBe(true);
    expect(sim.stats.calls).toEqual({});
  });

  it('aborting while calls are in flight ends the poll at once', async () => {
    sim.faults.delayMs = 50;
    const c = connectorFor(sim, t, { vulnerabilitySource: 'per-machine' });
    const ctrl = new AbortController();
    const p = c.poll({ signal: ctrl.signal, onProgress: (pr) => pr.phase === 'vulnerabilities' && calls(sim, PER_MACHINE) >= 15 && ctrl.abort() });
    const err = await p.catch((e: unknown) => e);
    expect(cancelled(err)).toBe(true);
    // A request written just before the abort may still land; the poll has ended, so once those
    // are answered nothing more comes, far short of the 50 machines.
    await until('the requests in flight at the abort to end', () => sim.stats.inFlightVulnerabilities === 0);
    expect(calls(sim, PER_MACHINE)).toBeLessThan(50);
    await c.close();
  });

  it('aborting while the limiter waits for the next minute ends the poll at once', async () => {
    const c = connectorFor(sim, paced, { vulnerabilitySource: 'per-machine' });
    const ctrl = new AbortController();
    const p = c.poll({ signal: ctrl.signal });
    // 50 calls fit the first (real) minute; then the connector waits ~60 s.
    await until('50 per-machine calls', () => calls(sim, PER_MACHINE) >= 50);
    // Cancelled while it waits for the next window (~60 s: only cancelling ends it within the test's timeout).
    ctrl.abort();
    const err = await p.catch((e: unknown) => e);
    expect(cancelled(err)).toBe(true);
    // It had stopped at the limit: not one call past the window's 50.
    expect(calls(sim, PER_MACHINE)).toBe(50);
    expect(sim.stats.throttled).toBe(0);
    await c.close();
  });
});
