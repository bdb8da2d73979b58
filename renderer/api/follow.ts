/**
 * The one way the renderer follows a stream of changes without following every one: `pace` runs
 * a job at once, or, if it ran less than `gapMs` ago, once when that gap is over (the changes in
 * between fold into that one run). `useFollow` paces the refetch of the reads in view that are
 * older than the newest event (alarm-live.ts); event-sync.ts paces the Overview's refetch after
 * `alarms.changed`. A read is fetched again only once its own fetch is done, never cancelled on
 * the way, so events several times a second never starve an answer, and the last event of a
 * burst is always followed.
 */
import { useEffect, useRef } from 'react';

export interface Pacer {
  /** Runs the job now, or at the end of the gap since its last run (once, however often asked). */
  run(): void;
  /** Drops a run waiting for its gap (the time of the last run is kept). */
  cancel(): void;
}

export function pace(job: () => void, gapMs: number): Pacer {
  let last = -Infinity;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const fire = () => {
    timer = undefined;
    last = performance.now();
    job();
  };
  return {
    run() {
      if (timer !== undefined) return;
      const wait = last + gapMs - performance.now();
      if (wait <= 0) fire();
      else timer = setTimeout(fire, wait);
    },
    cancel() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** A read that says how new it is (`seq`): a query result of alarm-live.ts's reads. */
export interface Followed {
  data: { seq: number } | undefined;
  isFetching: boolean;
  refetch(options: { cancelRefetch: boolean }): Promise<unknown>;
}

const behind = (q: Followed, seq: number) => q.data !== undefined && q.data.seq < seq && !q.isFetching;

/**
 * Fetches again each of `reads` that is older than `seq` and not fetching already, at most every
 * `minGapMs` (a chart need not redraw four times a second).
 */
export function useFollow(reads: Followed | readonly Followed[], seq: number, { enabled = true, minGapMs = 0 }: { enabled?: boolean; minGapMs?: number } = {}): void {
  const list: readonly Followed[] = Array.isArray(reads) ? reads : [reads as Followed];
  const due = enabled && list.some((q) => behind(q, seq));
  // The pacer runs the latest render's reads.
  const latest = useRef({ list, seq });
  useEffect(() => {
    latest.current = { list, seq };
  });
  // One pacer for the component's life (its gap is the first one asked for).
  const pacer = useRef<Pacer | undefined>(undefined);
  useEffect(() => {
    if (!due) return;
    pacer.current ??= pace(() => {
      const { list: now, seq: newest } = latest.current;
      for (const q of now) if (behind(q, newest)) void q.refetch({ cancelRefetch: false });
    }, minGapMs);
    const p = pacer.current;
    p.run();
    return () => p.cancel();
  }, [due, seq, minGapMs]);
}
