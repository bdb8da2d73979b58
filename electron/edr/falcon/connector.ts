/**
 * FalconConnector: one poll cycle against CrowdStrike Falcon (spec 4.2, EDR-F1..). Host ids come
 * from the scroll query (no 10,000 cap), details from POST /devices/entities/devices/v2 (1,000
 * per call; the API takes up to 5,000), assessments from the ZTA entities endpoint (100 per call);
 * each 2,000-host chunk is merged into HostRecords while the next one is fetched, so raw vendor
 * data of at most two chunks exists at a time. A details answer (1,000 records, a few MB of JSON)
 * is parsed and checked on the parser thread (falcon-parser.ts): on main it held the window for
 * 25-40 ms a call (issue 21 item 5, EDR-F5).
 */
import { AppError } from '../../../shared/model/errors';
import type { FalconAssessment, HostRecord } from '../../../shared/model/edr';
import type { TlsTrust } from '../../../shared/model/profile';
import { silentLogger, type Logger } from '../../log';
import { HttpClient } from '../../net';
import { FalconApi, type FalconEnvelope } from './api';
import { FalconAuth } from './auth';
import { DEFAULT_SENSOR_WINDOW_MS, parseAssessments, toHostRecord } from './merge';
import { sharedFalconParser, type FalconParser } from './falcon-parser';
import { RatePacer } from './pacer';
import type { FalconCloud, FalconCloudSetting } from './regions';
import { DEFAULT_RETRY, type RetryPolicy } from './retry';
import { cancelledError, sleep as defaultSleep } from '../../net/retry';

export const FALCON_PATHS = {
  query: '/devices/queries/devices/v1',
  scroll: '/devices/queries/devices-scroll/v1',
  devices: '/devices/entities/devices/v2',
  zta: '/zero-trust-assessment/entities/assessments/v1',
} as const;

/**
 * Batch sizes (EDR-F5). Details by 2,000, not the 5,000 a POST allows: a chunk's answers and its
 * merge are the poller's garbage, and 2,000 keeps a 100,000-host cycle's peak RSS well under
 * 400 MB for 30 more calls (1,070 instead of 1,040, +3 % on the rate-limit floor).
 */
export const FALCON_BATCH = { scroll: 5000, details: 2000, devices: 1000, zta: 100 } as const;
/**
 * Resolves on a later turn of the event loop, after the timers and the I/O waiting meanwhile (a
 * window request): a timer, not setImmediate, which would run before the loop polls again.
 */
const nextTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0));
/** Spec 3: up to 10 concurrent calls. */
export const MAX_CONCURRENCY = 10;

export interface FalconConnectorOptions {
  /** Our connector (tenant) id, copied into every HostRecord. */
  tenantId: string;
  clientId: string;
  /** Read from the vault when a token is needed; never kept by the connector. */
  clientSecret: () => Promise<string> | string;
  cloudRegion: FalconCloudSetting;
  /** Base URL of the configured cloud (or where autodiscovery starts) instead of the public host. */
  baseUrl?: string;
  /** Base URL per cloud (the simulator's listeners); default the public API hosts. */
  cloudBaseUrls?: Partial<Record<FalconCloud, string>>;
  /** Flight Control: read this child CID. */
  memberCid?: string;
  tls: TlsTrust;
  logger?: Logger;
  now?: () => number;
  /** Concurrent calls, 1..10; default 8. */
  concurrency?: number;
  /** Per-request timeout; default 30 s. */
  timeoutMs?: number;
  /** Window of "sensor running" (EDR-F10); default 24 h. */
  sensorRunningWindowMs?: number;
  /** The window X-RateLimit-Limit counts in; default 60 s. */
  rateWindowMs?: number;
  /** Default true; false only to show what pacing prevents. */
  pacing?: boolean;
  retry?: Partial<RetryPolicy>;
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** An HttpClient to share (closed by its owner); by default the connector makes and closes its own. */
  http?: HttpClient;
  /** Where details answers are read; default the process's parser thread. */
  parser?: FalconParser;
}

export interface FalconPollProgress {
  phase: 'ids' | 'hosts';
  done: number;
  total: number;
}

export interface FalconPollSummary {
  hosts: number;
  listed: number;
  /** Listed ids whose details were gone by the time they were fetched. */
  missing: number;
  /** Vendor records that failed validation (skipped). */
  invalid: number;
  assessed: number;
  calls: number;
  r429: number;
  retries: number;
  tokenRequests: number;
  slowed: number;
  region: FalconCloud | undefined;
  ms: number;
}

/** At most `max` tasks at a time. */
class Limiter {
  private active = 0;
  private readonly queue: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.active += 1;
    try {
      return await fn();
    } finally {
      this.active -= 1;
      this.queue.shift()?.();
    }
  }
}

const chunks = <T>(xs: readonly T[], size: number): T[][] => Array.from({ length: Math.ceil(xs.length / size) }, (_, i) => xs.slice(i * size, (i + 1) * size));
const strings = (r: FalconEnvelope['resources']): string[] => (r ?? []).filter((x): x is string => typeof x === 'string' && x.length > 0);

export class FalconConnector {
  private readonly http: HttpClient;
  private readonly ownsHttp: boolean;
  private readonly auth: FalconAuth;
  private readonly api: FalconApi;
  private readonly pacer: RatePacer;
  private readonly limiter: Limiter;
  private readonly now: () => number;
  private readonly logger: Logger;
  private readonly parser: FalconParser;
  lastPoll: FalconPollSummary | undefined;

  constructor(private readonly o: FalconConnectorOptions) {
    this.now = o.now ?? Date.now;
    this.logger = (o.logger ?? silentLogger).child('falcon');
    const concurrency = Math.min(MAX_CONCURRENCY, Math.max(1, Math.floor(o.concurrency ?? 8)));
    const retry: RetryPolicy = { ...DEFAULT_RETRY, ...o.retry };
    const sleep = o.sleep ?? defaultSleep;
    this.ownsHttp = !o.http;
    this.http = o.http ?? new HttpClient({ tls: o.tls, timeoutMs: o.timeoutMs ?? 30_000, logger: this.logger, maxBodyBytes: 64 * 1024 * 1024, peer: 'the CrowdStrike Falcon API' });
    this.pacer = new RatePacer({ maxInFlight: concurrency, windowMs: o.rateWindowMs ?? 60_000, enabled: o.pacing ?? true, now: this.now, sleep });
    this.auth = new FalconAuth({
      http: this.http,
      clientId: o.clientId,
      clientSecret: o.clientSecret,
      setting: o.cloudRegion,
      now: this.now,
      sleep,
      retry,
      pacer: this.pacer,
      logger: this.logger,
      ...(o.memberCid ? { memberCid: o.memberCid } : {}),
      ...(o.baseUrl ? { baseUrl: o.baseUrl } : {}),
      ...(o.cloudBaseUrls ? { cloudBaseUrls: o.cloudBaseUrls } : {}),
    });
    this.api = new FalconApi({ http: this.http, auth: this.auth, pacer: this.pacer, retry, sleep, logger: this.logger });
    this.limiter = new Limiter(concurrency);
    this.parser = o.parser ?? sharedFalconParser(o.logger);
  }

  /** The cloud in use (after autodiscovery, the discovered one). */
  region(): FalconCloud | undefined {
    return this.auth.region();
  }

  /** Connector Test, step by step: a token (the region it found), then each API the poll reads. */
  async signIn(signal?: AbortSignal): Promise<{ region: FalconCloud; baseUrl: string }> {
    const tok = await this.auth.token(signal);
    return { region: tok.region, baseUrl: tok.baseUrl };
  }

  /** Hosts (devices:read): how many, and the first one's id to ask the ZTA API about. */
  async probeHosts(signal?: AbortSignal): Promise<{ hosts: number; first: string | undefined }> {
    const { envelope } = await this.api.call({ method: 'GET', path: FALCON_PATHS.query, query: [['limit', '1']] }, signal);
    const first = strings(envelope.resources)[0];
    const total = Number(envelope.meta?.pagination?.total);
    return { hosts: Number.isFinite(total) ? total : strings(envelope.resources).length, first };
  }

  /** Zero Trust Assessment (zero-trust-assessment:read) of one host: whether it has one. */
  async probeAssessment(hostId: string, signal?: AbortSignal): Promise<boolean> {
    const { status, envelope } = await this.api.call({ method: 'GET', path: FALCON_PATHS.zta, query: [['ids', hostId]], allow404: true }, signal);
    return status !== 404 && (envelope.resources?.length ?? 0) > 0;
  }

  /**
   * One full cycle: every host of the tenant with its assessment (or null), or an AppError. With
   * `onHosts` each merged chunk (≤ 2,000 hosts) goes there as soon as it is complete and is not
   * kept (the next chunk is fetched meanwhile), so memory stays bounded by two chunks whatever the tenant size; the promise then resolves
   * to an empty array.
   */
  async poll(opts: { signal?: AbortSignal; onProgress?: (p: FalconPollProgress) => void; onHosts?: (batch: HostRecord[]) => void | Promise<void> } = {}): Promise<HostRecord[]> {
    const started = performance.now();
    const inner = new AbortController();
    const onAbort = () => inner.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) throw cancelledError('The Falcon poll');
    const before = { ...this.api.stats, tokens: this.auth.requests, slowed: this.pacer.slowed };
    const signal = inner.signal;
    try {
      const ids = await this.listIds(signal, opts.onProgress);
      const out: HostRecord[] = [];
      let done = 0;
      const counts = { missing: 0, invalid: 0, assessed: 0 };
      // The next chunk's calls are under way while this one is merged and handed out (the rate
      // budget keeps coming back meanwhile); at most two chunks of raw answers exist at a time.
      const fetchChunk = (start: number) => {
        const chunk = ids.slice(start, start + FALCON_BATCH.details);
        // Each answer is reduced to what the merge reads as soon as it arrives, so the raw
        // envelopes die young instead of waiting for the rest of the chunk.
        const byAid = new Map<string, FalconAssessment>();
        let invalidZta = 0;
        const p = Promise.all([
          Promise.all(
            chunks(chunk, FALCON_BATCH.devices).map((batch) =>
              this.limiter
                // Read and checked on the parser thread, not here (falcon-parser.ts).
                .run(() => this.api.call({ method: 'POST', path: FALCON_PATHS.devices, json: { ids: batch }, allow404: true, read: (bytes) => this.parser.devices(bytes) }, signal))
                .then((r) => ({ devices: r.envelope.devices, invalid: r.envelope.invalid })),
            ),
          ).then((parts) => ({ devices: parts.flatMap((x) => x.devices), invalid: parts.reduce((n, x) => n + x.invalid, 0) })),
          Promise.all(
            chunks(chunk, FALCON_BATCH.zta).map((batch) =>
              this.limiter
                .run(() => this.api.call({ method: 'GET', path: FALCON_PATHS.zta, query: batch.map((id): [string, string] => ['ids', id]), allow404: true }, signal))
                .then((r) => void (invalidZta += parseAssessments(r.envelope.resources ?? [], byAid).invalid)),
            ),
          ),
        ]).then(([{ devices, invalid }]) => ({ size: chunk.length, devices, invalid: invalid + invalidZta, byAid }));
        // Awaited below; until then a failure must not count as unhandled.
        p.catch(() => undefined);
        return p;
      };
      let next = ids.length > 0 ? fetchChunk(0) : undefined;
      for (let start = 0; next; start += FALCON_BATCH.details) {
        const current = await next.catch((e: unknown) => {
          inner.abort();
          throw e;
        });
        next = start + FALCON_BATCH.details < ids.length ? fetchChunk(start + FALCON_BATCH.details) : undefined;
        // The chunk's last answer was read and parsed in this turn; its merge and scoring take the next.
        await nextTurn();
        const { devices, byAid } = current;
        counts.invalid += current.invalid;
        counts.missing += current.size - devices.length;
        const ctx = { tenantId: this.o.tenantId, now: this.now(), sensorWindowMs: this.o.sensorRunningWindowMs ?? DEFAULT_SENSOR_WINDOW_MS };
        // Handed out a details call's worth at a time: each batch is merged, then scored and staged
        // by the caller, and main's loop turns between two.
        for (let i = 0; i < devices.length; i += FALCON_BATCH.devices) {
          const batch = devices.slice(i, i + FALCON_BATCH.devices).map((d) => {
            const a = byAid.get(d.device_id.toLowerCase()) ?? null;
            if (a) counts.assessed += 1;
            return toHostRecord(d, a, ctx);
          });
          done += batch.length;
          if (opts.onHosts) await opts.onHosts(batch);
          else for (const h of batch) out.push(h);
          opts.onProgress?.({ phase: 'hosts', done, total: ids.length });
        }
      }
      this.lastPoll = {
        hosts: done,
        listed: ids.length,
        ...counts,
        calls: this.api.stats.calls - before.calls,
        r429: this.api.stats.r429 - before.r429,
        retries: this.api.stats.retries - before.retries,
        tokenRequests: this.auth.requests - before.tokens,
        slowed: this.pacer.slowed - before.slowed,
        region: this.auth.region(),
        ms: Math.round(performance.now() - started),
      };
      this.logger.info('falcon poll done', { ...this.lastPoll });
      return out;
    } catch (e) {
      // A prefetched chunk's calls stop too (e.g. when onHosts refused a batch).
      inner.abort();
      if (opts.signal?.aborted) throw cancelledError('The Falcon poll');
      throw e;
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }

  /** Every host id via the scroll query; an expired scroll offset restarts the scroll once. */
  private async listIds(signal: AbortSignal, onProgress?: (p: FalconPollProgress) => void): Promise<string[]> {
    const seen = new Set<string>();
    let restarted = false;
    let offset: string | undefined;
    for (let page = 0; page < 10_000; page++) {
      const query: [string, string][] = [['limit', String(FALCON_BATCH.scroll)], ...(offset ? [['offset', offset] as [string, string]] : [])];
      let envelope: FalconEnvelope;
      try {
        ({ envelope } = await this.api.call({ method: 'GET', path: FALCON_PATHS.scroll, query }, signal));
      } catch (e) {
        if (offset && !restarted && e instanceof AppError && e.status === 400) {
          this.logger.warn('falcon scroll offset rejected; listing again', { listed: seen.size });
          restarted = true;
          offset = undefined;
          continue;
        }
        throw e;
      }
      const ids = strings(envelope.resources);
      for (const id of ids) seen.add(id);
      const p = envelope.meta?.pagination;
      const total = Number(p?.total);
      onProgress?.({ phase: 'ids', done: seen.size, total: Number.isFinite(total) ? Math.max(total, seen.size) : seen.size });
      const next = typeof p?.offset === 'string' && p.offset.length > 0 ? p.offset : undefined;
      if (ids.length === 0 || !next || (Number.isFinite(total) && seen.size >= total)) break;
      offset = next;
    }
    return [...seen];
  }

  async close(): Promise<void> {
    if (this.ownsHttp) await this.http.close();
  }
}
