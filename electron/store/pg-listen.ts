/**
 * One dedicated PostgreSQL connection that LISTENs (issue 25.2, C-88): what the team's writers
 * NOTIFY inside their transactions (so only once committed) reaches a console here. The connection
 * is the pool's own settings (server, user, password, TLS trust) on a client outside the pool, so a
 * long LISTEN never takes one of the pool's connections. When the database goes away (restart,
 * network) it connects again, waiting 0.5 s doubling to 10 s, and says so with `onReconnect`:
 * notifications sent meanwhile are lost, so whoever listens reads again.
 */
import pg from 'pg';
import type { Logger } from '../log';
import type { PgPool } from './postgres';

export interface PgListenerOptions {
  pool: PgPool;
  /** Channel names (plain identifiers). */
  channels: readonly string[];
  logger: Logger;
  onNotify(channel: string, payload: string): void;
  /** Listening again after a loss (or after a first attempt that failed): what was sent meanwhile is not known. */
  onReconnect(): void;
  minWaitMs?: number;
  maxWaitMs?: number;
  /** A quiet connection is checked this often (a server gone without a word is found so). */
  pingMs?: number;
}

const IDENT = /^[a-z_][a-z0-9_]*$/;

export class PgListener {
  private client: pg.Client | undefined;
  private closed = false;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ping: ReturnType<typeof setInterval> | undefined;
  private wait: number;
  /** Listening has been lost (or never started) since the last `onReconnect`. */
  private missed = false;
  private saidLost = false;

  constructor(private readonly o: PgListenerOptions) {
    for (const c of o.channels) if (!IDENT.test(c)) throw new Error(`not a channel name: ${c}`);
    this.wait = o.minWaitMs ?? 500;
  }

  /** Whether LISTEN is in force now. */
  get listening(): boolean {
    return this.client !== undefined;
  }

  /** Connects and listens; resolves once listening or once the first attempt failed (it keeps trying). */
  start(): Promise<void> {
    return this.connect();
  }

  private async connect(): Promise<void> {
    this.timer = undefined;
    if (this.closed) return;
    const options = this.o.pool.options;
    // The pool keeps the password out of its options' enumerable keys.
    const c = new pg.Client({ ...options, password: options.password, application_name: 'northbound console (listen)', keepAlive: true } as pg.ClientConfig);
    let lost = false;
    const onLost = (e?: Error) => {
      if (lost) return;
      lost = true;
      void c.end().catch(() => undefined);
      this.lost(c, e);
    };
    c.on('notification', (m) => {
      try {
        this.o.onNotify(m.channel, m.payload ?? '');
      } catch (e) {
        this.o.logger.warn('a notification could not be handled', { channel: m.channel, error: e instanceof Error ? e.message : String(e) });
      }
    });
    c.on('error', (e) => onLost(e));
    c.on('end', () => onLost());
    try {
      await c.connect();
      for (const ch of this.o.channels) await c.query(`LISTEN ${ch}`);
    } catch (e) {
      onLost(e instanceof Error ? e : new Error(String(e)));
      return;
    }
    if (this.closed) {
      lost = true;
      await c.end().catch(() => undefined);
      return;
    }
    this.client = c;
    this.wait = this.o.minWaitMs ?? 500;
    if (this.saidLost) this.o.logger.info('listening to the team’s database again');
    this.saidLost = false;
    this.ping = setInterval(() => void c.query('SELECT 1').catch((e: Error) => onLost(e)), this.o.pingMs ?? 15_000);
    this.ping.unref?.();
    if (this.missed) {
      this.missed = false;
      this.o.onReconnect();
    }
  }

  private lost(c: pg.Client, e?: Error): void {
    if (this.client === c) {
      this.client = undefined;
      clearInterval(this.ping);
    }
    this.missed = true;
    if (this.closed || this.timer) return;
    if (!this.saidLost) this.o.logger.warn('lost the team’s database notifications; connecting again', { error: e?.message ?? 'connection ended' });
    this.saidLost = true;
    const wait = this.wait;
    this.wait = Math.min(wait * 2, this.o.maxWaitMs ?? 10_000);
    this.timer = setTimeout(() => void this.connect(), wait);
    this.timer.unref?.();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.ping);
    const c = this.client;
    this.client = undefined;
    await c?.end().catch(() => undefined);
  }
}
