/**
 * Waits for something that will happen (an event recorded, a state reached): polls `probe` every
 * 10 ms until it gives a value other than undefined or false, and fails with `what` after
 * `timeoutMs`. Every polling loop in the tests goes through here, so none can spin for ever.
 */
export async function until<T>(what: string, probe: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}
