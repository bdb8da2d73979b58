/**
 * The simulated node's own reconnect delay (its alarm publisher): capped exponential backoff
 * with equal jitter (half fixed, half random). The node is not the console, so it does not
 * borrow the console's retry module.
 */
export function backoffMs(attempt: number, p: { baseDelayMs: number; maxDelayMs: number }, random: () => number = Math.random): number {
  const ceiling = Math.min(p.maxDelayMs, p.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(ceiling / 2 + random() * (ceiling / 2));
}
