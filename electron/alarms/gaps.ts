/**
 * Gap detection on the broker stream (MN-AL9): each node numbers its messages 1, 2, 3, … (`message_id`),
 * so a message more than one past the last one seen means messages were lost between the node and
 * the console, and the REST backfill closes the hole. A message at or below the last is a second
 * delivery (a redelivery after a reconnect, or the node sending again after a broker restart) and
 * changes nothing; `1` from a node seen before means the node started counting again.
 *
 * The message-id rule (issue 20): the last ID seen is a *trusted* high-water mark, and one message
 * cannot move it far. An ID more than `maxJump` away from it (above, or below other than `1`) is a
 * jump: a reason to check with REST (it is reported as a gap, so a backfill runs), not a new truth.
 * The jump starts a *candidate* numbering that becomes trusted only when the node goes on counting
 * from it (`confirmRun` consecutive IDs) and a REST backfill that started after the jump finished;
 * a message that goes on from the trusted ID drops the candidate. So a forged ID leaves gap detection
 * on, and a node that really renumbered is followed after a few messages.
 */
export type GapVerdict = { kind: 'first' | 'next' | 'old' | 'restart' } | { kind: 'gap'; missing: number; from: number; to: number } | { kind: 'jump'; from: number; to: number };

/** A jump farther than this from the trusted ID is checked, not believed (a real gap of this size is checked all the same). */
export const MAX_ID_JUMP = 100_000;
/** Consecutive IDs from a jump before it can become the trusted numbering. */
export const CONFIRM_RUN = 5;

interface Candidate {
  last: number;
  run: number;
  verified: boolean;
}

export class GapTracker {
  private readonly last: Map<string, number>;
  private readonly candidates = new Map<string, Candidate>();

  /** `initial`: the last message ID seen per node (`director_hostname`), as stored. */
  constructor(
    initial: ReadonlyMap<string, number> = new Map(),
    private readonly o: { maxJump?: number; confirmRun?: number } = {},
  ) {
    this.last = new Map(initial);
  }

  observe(director: string, id: number): GapVerdict {
    const last = this.last.get(director);
    if (last === undefined) {
      this.last.set(director, id);
      return { kind: 'first' };
    }
    const maxJump = this.o.maxJump ?? MAX_ID_JUMP;
    if (id === last + 1) {
      this.trust(director, id);
      return { kind: 'next' };
    }
    if (id > last + 1 && id - last <= maxJump) {
      this.trust(director, id);
      return { kind: 'gap', missing: id - last - 1, from: last + 1, to: id - 1 };
    }
    if (id === 1 && last > 1) {
      this.trust(director, 1);
      return { kind: 'restart' };
    }
    if (id <= last && last - id <= maxJump) return { kind: 'old' };
    // Far from the trusted ID: a candidate numbering, checked with REST before it is believed.
    const c = this.candidates.get(director);
    if (c && id === c.last + 1) {
      c.last = id;
      c.run += 1;
      this.promote(director, c);
      return { kind: 'next' };
    }
    if (c && id <= c.last && c.last - id <= maxJump) return { kind: 'old' };
    this.candidates.set(director, { last: id, run: 1, verified: false });
    return { kind: 'jump', from: last, to: id };
  }

  /** A REST backfill that started after every jump so far has finished: the candidates are checked. */
  verified(): void {
    for (const [director, c] of this.candidates) {
      c.verified = true;
      this.promote(director, c);
    }
  }

  private trust(director: string, id: number): void {
    this.last.set(director, id);
    this.candidates.delete(director);
  }

  private promote(director: string, c: Candidate): void {
    if (c.verified && c.run >= (this.o.confirmRun ?? CONFIRM_RUN)) this.trust(director, c.last);
  }

  /** The trusted last ID of a node (what is stored). */
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
    // A jump is checked with REST like a gap: the hole stays open until a backfill after it finished.
    const gap = verdicts.some((v) => v.kind === 'gap' || v.kind === 'jump');
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
    this.gaps.verified();
    return true;
  }
}
