/**
 * `northbound edr poll`'s progress, on stderr (stdout stays one JSON line per host; decision C-18).
 * On a terminal: one line rewritten in place, at most every 200 ms, cleared at the end. Otherwise
 * (a log file, a pipe, a test): one line when a phase ends and at most one every 5 s while a phase
 * runs, so a long cycle shows it is alive without flooding the log. Both end with a summary line.
 */
import type { Vendor } from '../shared/model/edr';

export type PollPhase = 'signin' | 'devices' | 'vulnerabilities';
const ORDER: Record<PollPhase, number> = { signin: 0, devices: 1, vulnerabilities: 2 };

export interface ProgressStream {
  write(text: string): unknown;
  isTTY?: boolean;
}

export interface PollProgressOptions {
  stream: ProgressStream;
  vendor: Vendor;
  /** Milliseconds, monotonic; performance.now by default (tests pass their own). */
  now?: () => number;
}

const n = (v: number) => v.toLocaleString('en-US');
const of = (done: number, total: number | null) => (total ? `${n(done)} of ${n(total)}` : n(done));

/** What each phase is called while it runs and once it ended, per vendor (Falcon lists host IDs, then reads details and assessments). */
function wording(vendor: Vendor) {
  const unit = vendor === 'defender' ? 'devices' : 'hosts';
  return {
    signin: { running: () => 'signing in…', ended: () => 'signed in' },
    devices: { running: (d: number, t: number | null) => `listing ${unit}… ${of(d, t)}`, ended: (d: number) => `${n(d)} ${unit} listed` },
    vulnerabilities:
      vendor === 'defender'
        ? { running: (d: number, t: number | null) => `reading vulnerabilities… ${of(d, t)} devices`, ended: (_d: number, t: number | null) => `vulnerabilities read for ${n(t ?? 0)} devices` }
        : { running: (d: number, t: number | null) => `reading host details and assessments… ${of(d, t)}`, ended: (_d: number, t: number | null) => `details and assessments read for ${n(t ?? 0)} hosts` },
  };
}

export interface PollProgress {
  /** A progress event of the connector; an event of an earlier phase than the current one is ignored. */
  phase(phase: PollPhase, done?: number, total?: number | null): void;
  /** Hosts scored so far (shown beside the phase). */
  scored(count: number): void;
  /** Before writing to stdout on the same terminal: the line in progress is wiped so the output does not interleave with it. */
  clearLine(): void;
  /** After that write: the line in progress again. */
  redraw(): void;
  /** The last line: what the cycle read, scored and skipped, and how long it took. */
  finish(summary: { hosts: number; scored: number; skipped: number }): void;
  /** Leaves the terminal line clean before an error is printed. */
  abandon(): void;
}

const TTY_EVERY_MS = 200;
const LOG_EVERY_MS = 5_000;

export function createPollProgress(opts: PollProgressOptions): PollProgress {
  const now = opts.now ?? (() => performance.now());
  const tty = !!opts.stream.isTTY;
  const words = wording(opts.vendor);
  const started = now();
  let phase: PollPhase = 'signin';
  let done = 0;
  let total: number | null = null;
  let scored = 0;
  let lastWrite = started;
  let lineShown = false;

  const secs = () => {
    const s = (now() - started) / 1000;
    return s < 10 ? `${s.toFixed(1)} s` : `${Math.round(s)} s`;
  };
  const prefix = `edr poll (${opts.vendor}): `;
  const running = () => `${prefix}${words[phase].running(done, total)}${scored ? ` · ${n(scored)} scored` : ''} (${secs()})`;
  const print = (line: string) => {
    if (tty) {
      opts.stream.write(`\r\x1b[2K${line}`);
      lineShown = true;
    } else opts.stream.write(`${line}\n`);
    lastWrite = now();
  };
  const wipe = () => {
    if (tty && lineShown) opts.stream.write('\r\x1b[2K');
    lineShown = false;
  };
  const tick = (force: boolean) => {
    if (force || now() - lastWrite >= (tty ? TTY_EVERY_MS : LOG_EVERY_MS)) print(running());
  };

  const advance = (next: PollPhase, d: number, t: number | null) => {
    if (ORDER[next] < ORDER[phase]) return;
    if (next !== phase) {
      // The phase that ended gets its own line in a log; on a terminal the next one replaces it.
      if (!tty) print(`${prefix}${words[phase].ended(done, total)} (${secs()})`);
      phase = next;
      done = d;
      total = t;
      tick(tty);
      return;
    }
    done = d;
    total = t;
    tick(false);
  };

  print(running());
  return {
    phase: (next, d = 0, t = null) => advance(next, d, t),
    scored(count) {
      // Hosts come out only once the listing is complete: Falcon hands out each chunk of details
      // before it reports the chunk, so the first hosts also mean that phase has begun.
      scored = count;
      if (phase !== 'vulnerabilities') advance('vulnerabilities', count, done);
      else tick(false);
    },
    clearLine: wipe,
    redraw: () => {
      if (tty) tick(true);
    },
    finish(s) {
      wipe();
      if (!tty) opts.stream.write(`${prefix}${words[phase].ended(done, total)} (${secs()})\n`);
      opts.stream.write(`${prefix}done: ${n(s.hosts)} ${opts.vendor === 'defender' ? 'devices' : 'hosts'}, ${n(s.scored)} scored, ${n(s.skipped)} skipped in ${secs()}\n`);
    },
    abandon: wipe,
  };
}
