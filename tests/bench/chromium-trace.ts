/**
 * Reading a Chromium performance trace (Playwright's `browser.startTracing`, the trace DevTools
 * records) for the window benches: the main-thread tasks of the page between two of its
 * `performance.mark`s, and what the main thread did during the longest gap between two animation
 * frames. A frame gap alone does not say whose fault it is (the page's task, the compositor, or a
 * machine whose other processes had the core): a task's wall time (`dur`) next to its thread time
 * (`tdur`, the CPU the thread really got) does.
 */

/** What DevTools' Performance panel records of the main thread, and the page's marks. */
export const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'blink.user_timing'];
/** The same, with the JavaScript sampled (a CPU profile inside the trace; for looking, not for the numbers). */
export const PROFILE_CATEGORIES = [...TRACE_CATEGORIES, 'disabled-by-default-v8.cpu_profiler', 'v8.execute'];

/** The marks `__nbFrames` sets around its loop (for `mainThreadReport`). */
export const FRAMES_START = 'nb-frames-start';
export const FRAMES_END = 'nb-frames-end';

/**
 * In-page, for `page.evaluate` (a string: tsx would wrap a function with helpers the page lacks).
 * `__nbFrames(ms, onFrame)` runs an animation-frame loop for `ms` between the marks FRAMES_START
 * and FRAMES_END, calling `onFrame` (the source of an expression giving a function, or '') on each
 * frame, and resolves with the longest gap between two frames (`gap`) and the durations of the long
 * tasks (≥ 50 ms) the Long Tasks API reported meanwhile (`long`).
 */
export const FRAMES_HELPER = `
window.__nbFrames = (ms, onFrameSrc) => new Promise((resolve) => {
  const onFrame = onFrameSrc ? new Function('return (' + onFrameSrc + ')')() : () => {};
  performance.mark('${FRAMES_START}');
  const long = [];
  const po = new PerformanceObserver((list) => { for (const e of list.getEntries()) long.push(e.duration); });
  po.observe({ type: 'longtask', buffered: false });
  let last = performance.now();
  let gap = 0;
  const end = last + ms;
  const step = () => {
    const now = performance.now();
    gap = Math.max(gap, now - last);
    last = now;
    if (now > end) { po.disconnect(); performance.mark('${FRAMES_END}'); return resolve({ gap, long }); }
    onFrame();
    requestAnimationFrame(step);
  };
  requestAnimationFrame(step);
});`;

/** What `__nbFrames` resolves with. */
export interface FramesResult {
  gap: number;
  long: number[];
}

interface TraceEvent {
  name: string;
  cat: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { data?: { functionName?: string; url?: string } };
}

export interface MainTask {
  /** Start, ms after the first mark. */
  atMs: number;
  /** Wall time. */
  ms: number;
  /** Thread (CPU) time: less than the wall time when the thread waited for a core. */
  cpuMs: number;
  /** The largest kinds of work inside it (DevTools' names: FunctionCall, Layout, Paint…), ms. */
  top: Array<{ name: string; ms: number }>;
}

export interface MainThreadReport {
  windowMs: number;
  tasks: number;
  longest: MainTask | undefined;
  /** Tasks of 50 ms or more (wall time). */
  long: MainTask[];
  /** The longest gap between two animation frames the page ran, and how much of it the main thread worked. */
  frameGap: { ms: number; busyMs: number; busyCpuMs: number } | undefined;
  /** Animation frames the page ran, and the main thread's CPU time per frame (less noisy than a longest task on a busy machine). */
  frames: number;
  cpuPerFrameMs: number;
}

const events = (trace: Buffer | string): TraceEvent[] => {
  const parsed = JSON.parse(typeof trace === 'string' ? trace : trace.toString('utf8')) as { traceEvents?: TraceEvent[] } | TraceEvent[];
  return Array.isArray(parsed) ? parsed : (parsed.traceEvents ?? []);
};

/** The main-thread tasks between the marks `from` and `to` (the page's renderer: the thread that recorded them). */
export function mainThreadReport(trace: Buffer | string, from: string, to: string): MainThreadReport {
  const all = events(trace);
  const start = all.find((e) => e.cat.includes('blink.user_timing') && e.name === from);
  const end = all.find((e) => e.cat.includes('blink.user_timing') && e.name === to);
  if (!start || !end) throw new Error(`the trace lacks the marks ${from} and ${to}`);
  const { pid, tid } = start;
  const t0 = start.ts;
  const t1 = end.ts;
  const mine = all.filter((e) => e.pid === pid && e.tid === tid && e.ph === 'X' && e.ts + (e.dur ?? 0) >= t0 && e.ts <= t1);
  const runs = mine.filter((e) => e.name === 'RunTask' && e.cat.includes('devtools.timeline')).sort((a, b) => a.ts - b.ts);
  const task = (e: TraceEvent): MainTask => {
    const inside = new Map<string, number>();
    // Only the outermost events of each kind count (a FunctionCall inside a FunctionCall once).
    const kids = mine.filter((k) => k !== e && k.ts >= e.ts && k.ts + (k.dur ?? 0) <= e.ts + (e.dur ?? 0) && k.name !== 'RunTask');
    kids.sort((a, b) => a.ts - b.ts);
    const openUntil = new Map<string, number>();
    for (const k of kids) {
      if ((openUntil.get(k.name) ?? -1) > k.ts) continue;
      openUntil.set(k.name, k.ts + (k.dur ?? 0));
      inside.set(k.name, (inside.get(k.name) ?? 0) + (k.dur ?? 0) / 1000);
    }
    const top = [...inside].sort((a, b) => b[1] - a[1]).slice(0, 5).map(([name, ms]) => ({ name, ms }));
    return { atMs: (e.ts - t0) / 1000, ms: (e.dur ?? 0) / 1000, cpuMs: (e.tdur ?? e.dur ?? 0) / 1000, top };
  };
  let longest: TraceEvent | undefined;
  for (const r of runs) if (!longest || (r.dur ?? 0) > (longest.dur ?? 0)) longest = r;

  // Frames: each FireAnimationFrame the page ran (its rAF loop), the longest gap between two.
  const frames = mine.filter((e) => e.name === 'FireAnimationFrame').map((e) => e.ts).sort((a, b) => a - b);
  let frameGap: MainThreadReport['frameGap'];
  for (let k = 1; k < frames.length; k++) {
    const [a, b] = [frames[k - 1]!, frames[k]!];
    if (frameGap && (b - a) / 1000 <= frameGap.ms) continue;
    let busy = 0;
    let busyCpu = 0;
    for (const r of runs) {
      const s = Math.max(a, r.ts);
      const e = Math.min(b, r.ts + (r.dur ?? 0));
      if (e <= s) continue;
      busy += e - s;
      busyCpu += ((r.tdur ?? r.dur ?? 0) * (e - s)) / Math.max(1, r.dur ?? 0);
    }
    frameGap = { ms: (b - a) / 1000, busyMs: busy / 1000, busyCpuMs: busyCpu / 1000 };
  }
  const cpuMs = runs.reduce((sum, r) => sum + (r.tdur ?? r.dur ?? 0), 0) / 1000;
  return {
    windowMs: (t1 - t0) / 1000,
    tasks: runs.length,
    longest: longest && task(longest),
    long: runs.filter((r) => (r.dur ?? 0) >= 50_000).map(task),
    frameGap,
    frames: frames.length,
    cpuPerFrameMs: frames.length ? cpuMs / frames.length : 0,
  };
}

/** Self time per JavaScript function in the trace's CPU profile of the page's main thread between two marks (for reading, largest first). */
export function jsSelfTime(trace: Buffer | string, from: string, to: string, top = 40): Array<{ fn: string; ms: number }> {
  const all = events(trace);
  const start = all.find((e) => e.name === from);
  const t0 = start?.ts ?? -Infinity;
  const t1 = all.find((e) => e.name === to)?.ts ?? Infinity;
  interface Node {
    id: number;
    callFrame: { functionName?: string; url?: string; lineNumber?: number; columnNumber?: number };
  }
  type Profiled = TraceEvent & { id?: string; args: { data?: { startTime?: number; cpuProfile?: { nodes?: Node[]; samples?: number[] }; timeDeltas?: number[] } } };
  const profiles = new Map<string, { nodes: Map<number, Node>; ts: number }>();
  const self = new Map<string, number>();
  for (const e of all as Profiled[]) {
    if (start && e.pid !== start.pid) continue;
    const id = `${e.pid}:${e.id ?? ''}`;
    if (e.name === 'Profile') profiles.set(id, { nodes: new Map(), ts: e.args.data?.startTime ?? e.ts });
    if (e.name !== 'ProfileChunk') continue;
    const p = profiles.get(id);
    if (!p) continue;
    const d = e.args.data!;
    for (const n of d.cpuProfile?.nodes ?? []) p.nodes.set(n.id, n);
    const samples = d.cpuProfile?.samples ?? [];
    const deltas = d.timeDeltas ?? [];
    for (let k = 0; k < samples.length; k++) {
      p.ts += deltas[k] ?? 0;
      if (p.ts < t0 || p.ts > t1) continue;
      const f = p.nodes.get(samples[k]!)?.callFrame;
      if (!f) continue;
      const key = `${f.functionName || '(anonymous)'} ${(f.url ?? '').split('/').pop()}:${(f.lineNumber ?? -1) + 1}`;
      // A sample stands for the time until the next one.
      self.set(key, (self.get(key) ?? 0) + Math.max(0, deltas[k + 1] ?? deltas[k] ?? 0) / 1000);
    }
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, top).map(([fn, ms]) => ({ fn, ms }));
}
