/**
 * Calls `fn` at most once per `intervalMs` with the latest arguments; the first call goes out at
 * once, later ones within the interval are folded into one trailing call.
 */
export interface Throttled<A extends unknown[]> {
  call(...args: A): void;
  /** Sends a folded call now, if one is waiting. */
  flush(): void;
  /** Drops a waiting call. */
  cancel(): void;
}

export function throttle<A extends unknown[]>(fn: (...args: A) => void, intervalMs: number): Throttled<A> {
  let last = -Infinity;
  let waiting: A | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    if (!waiting) return;
    const args = waiting;
    waiting = undefined;
    last = Date.now();
    fn(...args);
  };
  return {
    call(...args) {
      waiting = args;
      const wait = last + intervalMs - Date.now();
      if (wait <= 0) fire();
      else timer ??= setTimeout(fire, wait);
    },
    flush: fire,
    cancel() {
      if (timer) clearTimeout(timer);
      timer = undefined;
      waiting = undefined;
    },
  };
}
