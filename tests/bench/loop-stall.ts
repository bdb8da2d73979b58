/**
 * Main's event loop during a bench: a timer asks to run every `tickMs`; a gap between two of its
 * runs longer than that is time the loop could not answer anything (a window request, an IPC
 * message). `longestMs` is the longest such stall, `over50` how many reached 50 ms (the target is
 * none). On a machine shared with other work a stall is also time the thread waited for a CPU: on
 * Linux the main thread's own run time (/proc/self/task/<pid>/schedstat, ns) is read at each tick,
 * so each stall is known as CPU time on main too: `longestCpuMs` is the longest time main's thread
 * ran without its loop turning (what moving work off main removes), `longestStallCpuMs` the CPU time
 * within the longest stall. Cheap enough to run beside the work it watches.
 */
import { readFileSync } from 'node:fs';
import { PerformanceObserver, constants } from 'node:perf_hooks';

export interface StallReport {
  longestMs: number;
  over50: number;
  /** When the longest stall ended, ms since the probe started (to tell which phase made it). */
  longestAtMs: number;
  /** Main's thread on a CPU within the longest stall; the longest CPU time between two turns; stalls with ≥ 50 ms of it (Linux; else undefined). */
  longestStallCpuMs?: number;
  longestCpuMs?: number;
  /** When the longest CPU run ended, ms since the probe started. */
  longestCpuAtMs?: number;
  cpuOver50?: number;
  /** The longest garbage collection pause meanwhile (V8 stops the thread), its kind, and pauses ≥ 50 ms. */
  longestGcMs: number;
  longestGcKind: string;
  gcOver50: number;
}

const GC_KINDS: Record<number, string> = {
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'major',
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'minor',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'incremental',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'weak callbacks',
};

const schedstat = `/proc/self/task/${process.pid}/schedstat`;
/** Main thread's run time so far, ms (undefined where /proc is missing). */
function mainCpuMs(): number | undefined {
  try {
    return Number(readFileSync(schedstat, 'utf8').split(' ')[0]) / 1e6;
  } catch {
    return undefined;
  }
}

export function watchStalls(tickMs = 5): { stop(): StallReport; mark(): StallReport } {
  const start = performance.now();
  let last = start;
  let lastCpu = mainCpuMs();
  let longest = 0;
  let longestAt = 0;
  let longestStallCpu = 0;
  let longestCpu = 0;
  let longestCpuAt = 0;
  let over50 = 0;
  let cpuOver50 = 0;
  const sample = () => {
    const now = performance.now();
    const cpu = lastCpu === undefined ? undefined : mainCpuMs();
    const stall = now - last - tickMs;
    const ran = cpu === undefined || lastCpu === undefined ? 0 : cpu - lastCpu;
    last = now;
    lastCpu = cpu;
    if (stall >= 50) over50 += 1;
    // NB_BENCH_STALLS=1: each stall of 30 ms or more on stderr, when it ended and main's CPU in it.
    if (stall >= 30 && process.env.NB_BENCH_STALLS) process.stderr.write(`stall ${stall.toFixed(1)} ms at ${(now - start).toFixed(0)} ms, main on a CPU ${ran.toFixed(1)} ms\n`);
    if (ran >= 50) cpuOver50 += 1;
    if (ran > longestCpu) {
      longestCpu = ran;
      longestCpuAt = now - start;
    }
    if (stall > longest) {
      longest = stall;
      longestAt = now - start;
      longestStallCpu = ran;
    }
  };
  let longestGc = 0;
  let longestGcKind = '';
  let gcOver50 = 0;
  const gc = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      if (e.duration >= 50) gcOver50 += 1;
      if (e.duration > longestGc) {
        longestGc = e.duration;
        longestGcKind = GC_KINDS[((e as unknown as { detail?: { kind?: number } }).detail)?.kind ?? -1] ?? 'other';
      }
    }
  });
  gc.observe({ entryTypes: ['gc'] });
  const timer = setInterval(sample, tickMs);
  const report = (): StallReport => ({
    longestMs: Math.max(0, longest),
    over50,
    longestAtMs: longestAt,
    ...(lastCpu === undefined ? {} : { longestStallCpuMs: longestStallCpu, longestCpuMs: longestCpu, longestCpuAtMs: longestCpuAt, cpuOver50 }),
    longestGcMs: longestGc,
    longestGcKind,
    gcOver50,
  });
  return {
    mark: report,
    // The loop may be held right now (stopped from inside the work it watches): that stall counts too.
    stop() {
      sample();
      clearInterval(timer);
      gc.disconnect();
      return report();
    },
  };
}
