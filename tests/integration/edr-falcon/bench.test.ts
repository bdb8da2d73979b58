/** The bench part runs one full cycle and reports it (the lead runs it with 100,000 hosts). */
import { describe, expect, it } from 'vitest';
import { benchFalcon } from '../../bench/falcon.bench-part';

describe('benchFalcon', () => {
  it('polls every host in one cycle without a 429 and counts the calls', async () => {
    const r = await benchFalcon(3_000);
    expect(r).toEqual({ hosts: 3_000, ms: expect.any(Number), calls: 1 + 1 + 1 + 30, r429: 0 });
  }, 60_000);
});
