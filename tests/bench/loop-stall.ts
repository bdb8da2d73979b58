/**
 * Main's event loop during a bench: a timer asks to run every `tickMs`; a gap between two of its
 * runs longer than that is time the loop could not answer anything (a window request, an IPC
 * message). `longestMs` is the longest such stall, `over50` how many reached 50 ms (the target is
 * none). Cheap enough to run beside the work it watches.
 */
export interface StallReport {
  longestMs: number;
  over50: number;
  /** When the longest stall ended, ms since the probe started (to tell which phase made it). */
  longestAtMs: number;
}

export function watchStalls(tickMs = 5): { stop(): StallReport; mark(): StallReport } {
  const start = performance.now();
  let last = start;
  let longest = 0;
  let longestAt = 0;
  let over50 = 0;
  const sample = () => {
    const now = performance.now();
    const stall = now - last - tickMs;
    last = now;
    if (stall >= 50) over50 += 1;
    if (stall > longest) {
      longest = stall;
      longestAt = now - start;
    }
  };
  const timer = setInterval(sample, tickMs);
  const report = (): StallReport => ({ longestMs: Math.max(0, longest), over50, longestAtMs: longestAt });
  return {
    mark: report,
    // The loop may be held right now (stopped from inside the work it watches): that stall counts too.
    stop() {
      sample();
      clearInterval(timer);
      return report();
    },
  };
}
