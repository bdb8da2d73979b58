/** Every request the simulator answered, for tests that count calls (e.g. one refresh for many callers). */
import type { SimRequestRecord, SimStats as SimStatsApi } from './types';

export class SimStats implements SimStatsApi {
  readonly requests: SimRequestRecord[] = [];
  /** Requests being handled now, and those whose client closed the connection before the answer. */
  readonly open = new Set<string>();
  readonly aborted: string[] = [];

  record(r: SimRequestRecord): void {
    this.requests.push(r);
  }

  count(method: string, pathPrefix: string): number {
    const m = method.toUpperCase();
    return this.requests.filter((r) => (m === '*' || r.method === m) && r.path.startsWith(pathPrefix)).length;
  }

  reset(): void {
    this.requests.length = 0;
    this.aborted.length = 0;
  }
}
