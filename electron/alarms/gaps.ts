/**
 * Gap detection on the broker stream (MN-AL9): each node numbers its messages 1, 2, 3, … (`message_id`),
 * so a message more than one past the last one seen means messages were lost between the node and
 * the console, and the REST backfill closes the hole. A message at or below the last is a second
 * delivery (a redelivery after a reconnect, or the node sending again after a broker restart) and
 * changes nothing; `1` from a node seen before means the node started counting again.
 */
export type GapVerdict = { kind: 'first' | 'next' | 'old' | 'restart' } | { kind: 'gap'; missing: number; from: number; to: number };

export class GapTracker {
  private readonly last: Map<string, number>;

  /** `initial`: the last message ID seen per node (`director_hostname`), as stored. */
  constructor(initial: ReadonlyMap<string, number> = new Map()) {
    this.last = new Map(initial);
  }

  observe(director: string, id: number): GapVerdict {
    const last = this.last.get(director);
    if (last === undefined) {
      this.last.set(director, id);
      return { kind: 'first' };
    }
    if (id === last + 1) {
      this.last.set(director, id);
      return { kind: 'next' };
    }
    if (id > last + 1) {
      this.last.set(director, id);
      return { kind: 'gap', missing: id - last - 1, from: last + 1, to: id - 1 };
    }
    if (id === 1 && last > 1) {
      this.last.set(director, 1);
      return { kind: 'restart' };
    }
    return { kind: 'old' };
  }

  lastSeen(director: string): number | undefined {
    return this.last.get(director);
  }

  snapshot(): Map<string, number> {
    return new Map(this.last);
  }
}
