/** Counters of the Falcon simulator: calls per path, statuses, 429s sent, tokens issued, concurrency. */
import type { FalconSimStats } from './types';

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
