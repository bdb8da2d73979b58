/**
 * Device details answers are read off main (issue 21 item 5). A 1,000-device answer is a few MB of
 * JSON: its JSON.parse and checks took 25-40 ms of main's thread each, the longest turns of its
 * event loop in a 100,000-host cycle, and made most of main's garbage. Here the answer's bytes move
 * (transferred, not copied) to a parser thread, which answers the checked devices (read.ts).
 *
 * One thread for the process, shared by every connector: started at the first answer, closed after
 * `idleMs` without one (a worker's heap is not kept between cycles), and holding the process open
 * only while it has work. When the thread cannot run (it failed to start or stopped), answers are
 * read on main as before, and the one that was on the thread when it stopped is asked for again
 * (`ParserStopped`: the call retries).
 */
import { silentLogger, type Logger } from '../../log';
import { SqlWorker, SqlWorkerStopped } from '../../store/sql-worker';
import { readDevicesAnswer, type DevicesAnswer, type FalconParseOps } from './read';

/** The thread stopped with this answer on it: its bytes are gone, the call asks again. */
export class ParserStopped extends Error {
  constructor(why: string) {
    super(`The Falcon parser thread stopped: ${why}`);
    this.name = 'ParserStopped';
  }
}

export interface FalconParserOptions {
  /** Close the thread after this long without an answer to read; default 30 s. */
  idleMs?: number;
  /** The worker entry (sql-worker.ts `workerEntry`); default the product's. */
  entry?: string;
  logger?: Logger;
}

export class FalconParser {
  private worker: SqlWorker<FalconParseOps> | undefined;
  private broken: string | undefined;
  private inFlight = 0;
  private idle: ReturnType<typeof setTimeout> | undefined;
  private readonly logger: Logger;
  /** Answers read on the thread, and on main. */
  readonly stats = { onThread: 0, onMain: 0 };

  constructor(private readonly o: FalconParserOptions = {}) {
    this.logger = (o.logger ?? silentLogger).child('falcon-parser');
  }

  /** Whether answers go to the thread (false once it failed). */
  get threaded(): boolean {
    return this.broken === undefined;
  }

  /** Whether a thread is up now (one is started at the first answer and closed when idle). */
  get started(): boolean {
    return this.worker !== undefined;
  }

  /** A details answer's bytes to its checked devices (undefined: not an envelope). The bytes are moved: unusable here afterwards. */
  async devices(bytes: Uint8Array): Promise<DevicesAnswer | undefined> {
    const w = this.thread();
    if (!w) {
      this.stats.onMain += 1;
      return readDevicesAnswer(bytes);
    }
    this.begin(w);
    try {
      const answer = await w.callMoving([bytes.buffer as ArrayBuffer], 'devices', bytes);
      this.stats.onThread += 1;
      return answer;
    } catch (e) {
      if (!(e instanceof SqlWorkerStopped)) throw e;
      this.fail(e.message);
      throw new ParserStopped(e.message);
    } finally {
      this.end(w);
    }
  }

  /** Ends the thread now (shutdown); later answers start a new one. */
  async close(): Promise<void> {
    clearTimeout(this.idle);
    const w = this.worker;
    this.worker = undefined;
    await w?.close();
  }

  private thread(): SqlWorker<FalconParseOps> | undefined {
    if (this.broken !== undefined) return undefined;
    if (!this.worker) {
      const w = new SqlWorker<FalconParseOps>(this.o.entry ?? 'edr/falcon/falcon-parse-thread', {});
      w.onCrash = (e) => this.fail(e.message);
      w.unref();
      this.worker = w;
    }
    return this.worker;
  }

  private begin(w: SqlWorker<FalconParseOps>): void {
    clearTimeout(this.idle);
    if (this.inFlight++ === 0) w.ref();
  }

  private end(w: SqlWorker<FalconParseOps>): void {
    if (--this.inFlight > 0) return;
    w.unref();
    if (this.worker !== w) return;
    this.idle = setTimeout(() => void this.close(), this.o.idleMs ?? 30_000);
    this.idle.unref();
  }

  private fail(why: string): void {
    if (this.broken !== undefined) return;
    this.broken = why;
    this.worker = undefined;
    this.logger.warn('falcon answers are read on main: the parser thread stopped', { why });
  }
}

let shared: FalconParser | undefined;
/** The process's parser, made at first use. */
export function sharedFalconParser(): FalconParser {
  shared ??= new FalconParser();
  return shared;
}
