/**
 * Issue 9.4: cancelling a refresh reaches the wire. The app stops (quit) while the node is still
 * answering a list page; the HTTP request itself is aborted (the simulator sees its client go
 * before the answer), instead of main only ceasing to wait for it.
 */
import { afterEach, expect, it } from 'vitest';
import { startWorld, until, type World } from './world';

let w: World | undefined;
afterEach(async () => {
  await w?.sim.close();
  w = undefined;
});

it('quitting during a refresh aborts the list request on the node', async () => {
  w = await startWorld({ sim: { seedDevices: 50 } });
  const { sim, h, profileId } = w;
  // The node takes 20 s per data answer: the first list page is in flight for a long time.
  sim.faults.dataDelayMs = 20_000;
  const refresh = h.callRaw('inventory.refresh', { profileId, what: 'devices' });
  await until('the list request to be in flight on the node', () => [...sim.stats.open].some((r) => r.startsWith('GET /mgmt/sdwan/workflow/devices')) || undefined);
  expect(sim.stats.aborted).toEqual([]);

  await h.app.shutdown();
  const answer = await refresh;
  expect(answer.ok).toBe(false);
  // Well before the node's 20 s: the request was aborted, the connection closed under it.
  await until('the node to see the request aborted', () => sim.stats.aborted.find((r) => r.startsWith('GET /mgmt/sdwan/workflow/devices')), 5_000);
  expect(sim.stats.open.size).toBe(0);
});
