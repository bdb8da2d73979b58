/**
 * The simulator's clock: real time plus an offset that tests move forward. Listeners hear every
 * advance; the simulator uses that to run its daily token clean-up at each midnight UTC crossed (MN-11).
 */
export const DAY_MS = 86_400_000;

/** The last midnight UTC at or before `ms`. */
export const midnightAtOrBefore = (ms: number): number => Math.floor(ms / DAY_MS) * DAY_MS;

export type AdvanceListener = (fromMs: number, toMs: number) => void;

export class SimClock {
  private offset: number;
  private readonly listeners = new Set<AdvanceListener>();

  /** `startMs`: the clock's reading now (epoch milliseconds); default the real time. */
  constructor(startMs?: number) {
    this.offset = startMs === undefined ? 0 : startMs - Date.now();
  }

  now(): number {
    return Date.now() + this.offset;
  }

  iso(): string {
    return new Date(this.now()).toISOString();
  }

  /** Move the clock forward by `ms` (never backwards) and tell the listeners. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError('SimClock.advance takes a non-negative number of milliseconds.');
    const from = this.now();
    this.offset += ms;
    const to = from + ms;
    for (const listener of [...this.listeners]) listener(from, to);
  }

  /** Returns a function that removes the listener. */
  onAdvance(listener: AdvanceListener): () => void {
    this.listeners.add(listener);
    return () => {
      this.listeners.delete(listener);
    };
  }
}
