/**
 * Whether a fleet collector's database is away (issue 24, C-69). Every path that writes or reads
 * the team's PostgreSQL — the broker batches, the fleet's stream check, the backfills — reports
 * its failures here: one that says the server could not be reached turns the outage on and is
 * announced once (not once per retry), the next success turns it off and is announced once. The
 * callers keep their own retries; this only decides what is said, and that it is said once.
 */
import { errorText } from './errors';

export interface StoreOutageOptions {
  /** Whether `e` says the store could not be reached (a desk's SQLite never says so). */
  unreachable(e: unknown): boolean;
  /** The database went away (`waiting`, with the first error) or came back. */
  onChange(waiting: boolean, error?: string): void;
}

export class StoreOutage {
  private down: string | undefined;

  constructor(private readonly o: StoreOutageOptions) {}

  /** The error of the outage under way; undefined while the store answers. */
  get error(): string | undefined {
    return this.down;
  }

  /** A store call failed: true when the store could not be reached (announced at the first such failure). */
  failed(e: unknown): boolean {
    if (!this.o.unreachable(e)) return false;
    if (this.down === undefined) {
      this.down = errorText(e);
      this.o.onChange(true, this.down);
    }
    return true;
  }

  /** A store call succeeded: an outage under way is over. */
  reached(): void {
    if (this.down === undefined) return;
    this.down = undefined;
    this.o.onChange(false);
  }
}
