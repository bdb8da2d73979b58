/**
 * Runs the poller as an operator does, `node bin/northbound.mjs edr poll --once ...`, in a child
 * process against a simulator that lives in the bench's own process, and measures the child only:
 * its peak RSS is the kernel's high-water mark (process.resourceUsage().maxRSS, written at exit by
 * report-rss.mjs); on Linux /proc/<pid>/status VmHWM is sampled too, as a cross-check. Stdout (one
 * JSON line per scored host) is counted, not kept; the last line is the CLI's summary.
 * `runMeasuredProcess` is the same measurement for any script (the app's poller: app-poller-child.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface PollerRun {
  code: number | null;
  /** Peak resident set of the poller process, MB (maxRSS at exit). */
  peakRssMb: number;
  /** Highest VmHWM read from /proc while it ran, MB (0 where /proc is missing). */
  sampledHwmMb: number;
  hostLines: number;
  summary: { hosts: number; scored: number; skipped: number; ms: number } | undefined;
  stderr: string;
}

/** A temporary directory for the CA file and the RSS report; removed by `dispose`. */
export function benchDir(): { dir: string; write(name: string, text: string): string; dispose(): void } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-bench-'));
  return {
    dir,
    write(name, text) {
      const p = path.join(dir, name);
      writeFileSync(p, text);
      return p;
    },
    dispose: () => rmSync(dir, { recursive: true, force: true }),
  };
}

async function vmHwmKb(pid: number): Promise<number> {
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const m = /^VmHWM:\s+(\d+)\s+kB/m.exec(status);
    return m ? Number(m[1]) : 0;
  } catch {
    return 0;
  }
}

export interface MeasuredRun {
  code: number | null;
  /** Peak resident set of the child, MB (maxRSS at exit). */
  peakRssMb: number;
  /** Highest VmHWM read from /proc while it ran, MB (0 where /proc is missing). */
  sampledHwmMb: number;
  /** Lines the child wrote on stdout (counted, not kept). */
  lines: number;
  /** The last line it wrote on stdout. */
  lastLine: string;
  stderr: string;
}

/**
 * Runs `node --import report-rss.mjs <argv>` and measures that child only: maxRSS written at its
 * exit, VmHWM sampled every 100 ms; killed with SIGKILL after `timeoutMs`.
 */
export function runMeasuredProcess(argv: string[], env: Record<string, string>, timeoutMs = 10 * 60_000): Promise<MeasuredRun> {
  const tmp = benchDir();
  const rssFile = path.join(tmp.dir, 'rss.json');
  const reporter = path.resolve('tests/bench/report-rss.mjs');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', reporter, ...argv], {
      env: { ...process.env, ...env, NB_BENCH_RSS_FILE: rssFile },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lines = 0;
    let tail = '';
    let stderr = '';
    let hwmKb = 0;
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (d: string) => {
      for (let i = d.indexOf('\n'); i !== -1; i = d.indexOf('\n', i + 1)) lines += 1;
      tail = (tail + d).slice(-8192);
    });
    child.stderr.setEncoding('utf8');
    // The child's last 8 KB of stderr (NB_BENCH_STDERR_KB=N keeps more, for a whole trace).
    child.stderr.on('data', (d: string) => {
      stderr = (stderr + d).slice(-Number(process.env.NB_BENCH_STDERR_KB ?? 8) * 1024);
    });
    const sampler = setInterval(() => {
      if (child.pid) void vmHwmKb(child.pid).then((kb) => (hwmKb = Math.max(hwmKb, kb)));
    }, 100);
    const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (e) => {
      clearInterval(sampler);
      clearTimeout(killer);
      tmp.dispose();
      reject(e);
    });
    child.once('exit', (code) => {
      clearInterval(sampler);
      clearTimeout(killer);
      let peakKb: number;
      try {
        peakKb = (JSON.parse(readFileSync(rssFile, 'utf8')) as { maxRssKb: number }).maxRssKb;
      } catch {
        peakKb = 0;
      }
      tmp.dispose();
      resolve({ code, peakRssMb: peakKb / 1024, sampledHwmMb: hwmKb / 1024, lines, lastLine: tail.trim().split('\n').at(-1) ?? '', stderr });
    });
  });
}

export async function runPollerProcess(args: string[], env: Record<string, string>, timeoutMs = 10 * 60_000): Promise<PollerRun> {
  const run = await runMeasuredProcess([path.resolve('bin/northbound.mjs'), ...args], env, timeoutMs);
  let summary: PollerRun['summary'];
  try {
    summary = (JSON.parse(run.lastLine) as { summary?: PollerRun['summary'] }).summary;
  } catch {
    summary = undefined;
  }
  return { code: run.code, peakRssMb: run.peakRssMb, sampledHwmMb: run.sampledHwmMb, hostLines: summary ? run.lines - 1 : run.lines, summary, stderr: run.stderr };
}

/** Peak RSS of the same command that only loads the poller (`edr poll --help`): what the cycle adds is the difference. */
export async function pollerBaselineRssMb(): Promise<number> {
  const r = await runPollerProcess(['edr', 'poll', '--help'], {});
  return r.peakRssMb;
}
