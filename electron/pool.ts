/**
 * The project's one worker pool: runs `fn` over `items` with at most `limit` at a time, taking
 * them in order. No new item is taken once `stop()` says so or an item has thrown; the items in
 * flight end first, then the first error is thrown. Used by the bulk onboarding (rows) and the
 * Defender connector (per-machine calls).
 */
export async function forEachLimited<T>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<void>, stop: () => boolean = () => false): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const worker = async () => {
    while (!failure && !stop() && next < items.length) {
      const i = next++;
      try {
        await fn(items[i]!, i);
      } catch (e) {
        failure ??= { error: e };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure) throw failure.error;
}
