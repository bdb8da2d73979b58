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

/**
 * The source's cursor rule on the broker stream (MN-AL9): while the stream has no hole, a stored
 * batch moves the cursor to its newest change; a gap opens a hole and the cursor stays where it
 * was until a backfill that started after the gap has finished (one that started before it may
 * have read the node before the missing changes happened, so it does not close the hole).
 */
export class StreamCursor {
  private generation = 0;
  private open = false;

  constructor(readonly gaps: GapTracker = new GapTracker()) {}

  get holeOpen(): boolean {
    return this.open;
  }

  /**
   * A batch's messages in delivery order: whether a gap opened, the verdicts, and the time the
   * cursor may move to once the batch is stored (undefined while a hole is open).
   */
  batch(messages: ReadonlyArray<{ director: string; messageId: number; newestEventMs?: number }>): { gap: boolean; verdicts: GapVerdict[]; cursorMs?: number } {
    let newest: number | undefined;
    const verdicts = messages.map((m) => {
      if (m.newestEventMs !== undefined) newest = Math.max(newest ?? 0, m.newestEventMs);
      return this.gaps.observe(m.director, m.messageId);
    });
    const gap = verdicts.some((v) => v.kind === 'gap');
    if (gap) {
      this.generation += 1;
      this.open = true;
    }
    return { gap, verdicts, ...(!this.open && newest !== undefined ? { cursorMs: newest } : {}) };
  }

  /** A backfill starts: the token to hand back when it has finished. */
  backfillStarted(): number {
    return this.generation;
  }

  /** A backfill finished: true when the hole (if any) is closed, false when a gap came while it ran (run another). */
  backfillFinished(token: number): boolean {
    if (token !== this.generation) return false;
    this.open = false;
    return true;
  }
}
