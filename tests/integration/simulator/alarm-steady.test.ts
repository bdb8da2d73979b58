/**
 * The demo's steady network (issue 22.12): with `steadyActive` the generator raises and clears
 * around a steady count of active alarms, where a random slot per change (the tests' generator)
 * climbs towards most slots.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

const active = (x: Harness) => x.sim.alarms.model.all().filter((a) => a.changes.at(-1)!.perceivedSeverity !== 'cleared').length;

describe('alarm generator', () => {
  it('keeps about 4/3 of steadyActive alarms active over a long run, while still raising and clearing', async () => {
    h = await startHarness({ alarms: { generator: { seed: 11, start: false, steadyActive: 30 } } });
    const counts: number[] = [];
    let raised = 0;
    let cleared = 0;
    for (let k = 0; k < 30; k++) {
      for (const e of h.sim.alarms.generator.step(100)) {
        if (e.kind !== 'change') continue;
        if (e.change.perceivedSeverity === 'cleared') cleared += 1;
        else raised += 1;
      }
      counts.push(active(h));
    }
    // After the first few hundred changes the count stays in a band around 40, never near the 840 slots.
    for (const n of counts.slice(5)) {
      expect(n).toBeGreaterThanOrEqual(20);
      expect(n).toBeLessThanOrEqual(70);
    }
    expect(raised).toBeGreaterThan(1_000);
    expect(cleared).toBeGreaterThan(1_000);
  });

  it('without it climbs towards most slots (what the demo looked like: on fire)', async () => {
    h = await startHarness({ alarms: { generator: { seed: 11, start: false } } });
    h.sim.alarms.generator.step(3_000);
    expect(active(h)).toBeGreaterThan(200);
  });
});
