/**
 * Device details answers are read off main (issue 21 item 5). A 1,000-device answer is a few MB of
 * JSON: its JSON.parse and checks took 25-40 ms of main's thread each, the longest turns of its
 * event loop in a 100,000-host cycle, and made most of main's garbage. Here the answer's bytes move
 * (transferred, not copied) to a parser thread, which answers the checked devices (read.ts).
 *
 * One thread for the process, shared by every connector: started at the first answer, closed after
 * `idleMs` without one (a worker's heap is not kept between cycles), and holding the process open
 * only while it has work. When the thread cannot run (it failed to start or stopped), answers are
 * read on main for `retryThreadMs`, then a thread is tried again; the answer that was on the thread
 * when it stopped is asked for again (`ParserStopped`: the API call retries it). As on main before,
 * the call's concurrency slot is held while its answer is read.
 */
import { silentLogger, type Logger } from '../../log';
import { SqlWorker, SqlWorkerStopped } from '../../store/sql-worker';
import { readDevicesAnswer, type DevicesAnswer, type FalconParseOps } from './read';

/** The thread stopped with this answer on it: its bytes are gone, the call asks again. */
export class ParserStopped extends Error {
  constructor(readonly why: string) {
    super(`The thread that reads Falcon's answers stopped (${why}); the answer is asked for again.`);
    this.name = 'ParserStopped';
  }
}

export interface FalconParserOptions {
  /** Close the thread after this long without an answer to read; default 30 s. */
  idleMs?: number;
  /** After the thread failed, read on main this long before trying a thread again; default 10 min. */
  retryThreadMs?: number;
  /** The worker entry (sql-worker.ts `workerEntry`); default the product's. */
  entry?: string;
  logger?: Logger;
  now?: () => number;
  /** Starts the thread (tests: one the system refuses); default a SqlWorker on `entry`. */
  start?: (entry: string) => SqlWorker<FalconParseOps>;
}

/** A started thread and the answers on it now (it keeps the process alive only while there are some). */
interface Slot {
  worker: SqlWorker<FalconParseOps>;
  inFlight: number;
}

export class FalconParser {
  private slot: Slot | undefined;
  /** Since when answers are read on main (the thread failed), or undefined. */
  private failedAt: number | undefined;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly logger: Logger;
  private readonly now: () => number;
  /** Answers read on the thread, and on main. */
  readonly stats = { onThread: 0, onMain: 0 };

  constructor(private readonly o: FalconParserOptions = {}) {
    this.logger = (o.logger ?? silentLogger).child('falcon-parser');
    this.now = o.now ?? Date.now;
  }

  /** Whether answers go to a thread now (false for a while after it failed). */
  get threaded(): boolean {
    return this.failedAt === undefined || this.now() - this.failedAt >= (this.o.retryThreadMs ?? 600_000);
  }

  /** Whether a thread is up now (one is started at the first answer and closed when idle). */
  get started(): boolean {
    return this.slot !== undefined;
  }

  /** A details answer's bytes to its checked devices (undefined: not an envelope). The bytes are moved: unusable here afterwards. */
  async devices(bytes: Uint8Array): Promise<DevicesAnswer | undefined> {
    const slot = this.thread();
    if (!slot) {
      this.stats.onMain += 1;
      return readDevicesAnswer(bytes);
    }
    this.begin(slot);
    try {
      const answer = await slot.worker.callMoving([bytes.buffer as ArrayBuffer], 'devices', bytes);
      this.stats.onThread += 1;
      return answer;
    } catch (e) {
      if (!(e instanceof SqlWorkerStopped)) throw e;
      this.fail(slot, e.why);
      throw new ParserStopped(e.why);
    } finally {
      this.end(slot);
    }
  }

  /** Ends the thread now (shutdown); answers on it are asked for again, later ones start a new one. */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const slot = this.slot;
    this.slot = undefined;
    await slot?.worker.close();
  }

  private thread(): Slot | undefined {
    if (!this.threaded) return undefined;
    if (this.slot) return this.slot;
    this.failedAt = undefined;
    let slot: Slot;
    try {
      const entry = this.o.entry ?? 'edr/falcon/falcon-parse-thread';
      slot = { worker: this.o.start ? this.o.start(entry) : new SqlWorker<FalconParseOps>(entry, {}), inFlight: 0 };
    } catch (e) {
      // The system refused a thread (e.g. ERR_WORKER_INIT_FAILED): read on main.
      this.fail(undefined, e instanceof Error ? e.message : String(e));
      return undefined;
    }
    slot.worker.onCrash = (e) => this.fail(slot, e instanceof SqlWorkerStopped ? e.why : e.message);
    slot.worker.unref();
    this.slot = slot;
    return slot;
  }

  private begin(slot: Slot): void {
    clearTimeout(this.idle);
    if (slot.inFlight++ === 0) slot.worker.ref();
  }

  private end(slot: Slot): void {
    if (--slot.inFlight > 0) return;
    slot.worker.unref();
    if (this.slot !== slot) return;
    this.idle = setTimeout(() => void this.close(), this.o.idleMs ?? 30_000);
    this.idle.unref();
  }

  /** The thread failed: answers are read on main for a while. */
  private fail(slot: Slot | undefined, why: string): void {
    if (slot && this.slot !== slot) return;
    this.slot = undefined;
    this.failedAt = this.now();
    this.logger.warn('falcon answers are read on main for now: the parser thread stopped', { why });
  }
}

let shared: FalconParser | undefined;
/** The process's parser, made at first use (with the first connector's logger). */
export function sharedFalconParser(logger?: Logger): FalconParser {
  shared ??= new FalconParser(logger ? { logger } : {});
  return shared;
}
