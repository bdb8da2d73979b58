/** Counters of the Falcon simulator: calls per path, statuses, 429s sent, tokens issued, concurrency. */
import type { FalconSimFaults, FalconSimStats } from './types';

export class FalconStats implements FalconSimStats {
  calls: Record<string, number> = {};
  statuses: Record<number, number> = {};
  r429 = 0;
  tokensIssued = 0;
  inFlight = 0;
  maxInFlight = 0;

  begin(path: string): void {
    this.calls[path] = (this.calls[path] ?? 0) + 1;
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
  }

  /** The connection finished with this request (answer flushed, or the socket gone). */
  done(): void {
    this.inFlight = Math.max(0, this.inFlight - 1);
  }

  answered(status: number): void {
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    if (status === 429) this.r429 += 1;
    if (status === 201) this.tokensIssued += 1;
  }

  total(): number {
    return Object.values(this.calls).reduce((a, b) => a + b, 0);
  }

  reset(): void {
    this.calls = {};
    this.statuses = {};
    this.r429 = 0;
    this.tokensIssued = 0;
    this.maxInFlight = this.inFlight;
  }
}

export const defaultFaults = (): FalconSimFaults => ({
  burst429: 0,
  retryAfterS: 1,
  serverErrors: 0,
  resets: 0,
  malformed: 0,
  slowCalls: 0,
  slowMs: 0,
  expireTokensAfterCalls: null,
  revokeTokensAfterCalls: null,
  every: 1,
  wrongRegionAs308: false,
});

export type InjectedFault = { kind: '429' } | { kind: '5xx'; status: number } | { kind: 'reset' } | { kind: 'malformed' };

/** Picks (and uses up) the fault for this data call, if any; `slow` is separate and returned as a delay. */
export class FaultPicker {
  private calls = 0;
  private rotation = 0;

  constructor(private readonly f: FalconSimFaults) {}

  next(): { fault?: InjectedFault; delayMs: number } {
    this.calls += 1;
    const selected = this.f.every <= 1 || this.calls % this.f.every === 0;
    if (!selected) return { delayMs: 0 };
    let delayMs = 0;
    if (this.f.slowCalls > 0) {
      this.f.slowCalls -= 1;
      delayMs = this.f.slowMs;
    }
    if (this.f.resets > 0) {
      this.f.resets -= 1;
      return { fault: { kind: 'reset' }, delayMs };
    }
    if (this.f.serverErrors > 0) {
      this.f.serverErrors -= 1;
      const status = [500, 502, 503][this.rotation++ % 3] ?? 500;
      return { fault: { kind: '5xx', status }, delayMs };
    }
    if (this.f.malformed > 0) {
      this.f.malformed -= 1;
      return { fault: { kind: 'malformed' }, delayMs };
    }
    if (this.f.burst429 > 0) {
      this.f.burst429 -= 1;
      return { fault: { kind: '429' }, delayMs };
    }
    return { delayMs };
  }
}
