/**
 * DefenderConnector: polls Microsoft Defender for Endpoint (vendor B) for one tenant.
 *
 * A cycle: token → every machine (`$top` pages + @odata.nextLink) → CVEs from the bulk export
 * SoftwareVulnerabilitiesByMachine (a few calls for tens of thousands of devices), or, when the
 * export is refused (403/404), one call per onboarded device with at most 10 in flight → one
 * HostRecord per machine. Every call is paced under the documented limits (see limiter.ts),
 * retried on 5xx / resets / malformed JSON, and a 401 refreshes the token once.
 */
import { isAppError } from '../../../shared/model/errors';
import type { HostRecord } from '../../../shared/model/edr';
import { silentLogger, type Logger } from '../../log';
import { HttpClient } from '../../net/http-client';
import { DefenderApi, type CallCounters } from './api';
import { diagnose, explainForbidden, type DefenderDiagnosis } from './diagnose';
import { mapPool, realClock, scaleWindows, SlidingWindowLimiter, type LimiterClock } from './limiter';
import { cancelledError } from '../../net/retry';
import { CveAggregator, NO_CVES, factsFromVulnerabilities, hostRecord, machineIdOf, type CveFacts } from './mapping';
import { TokenProvider } from './token';
import { pathSegment } from '../../net/path-segment';
import {
  DEFAULT_API_URL,
  DEFAULT_IDP_URL,
  DEFAULT_RETRY,
  DEFENDER_RESOURCE,
  DOCUMENTED_LIMITS,
  MCAS_RESOURCE,
  type CycleReport,
  type DefenderConnectorOptions,
  type EndpointClass,
  type PollOptions,
  type PollProgress,
  type RetryPolicy,
} from './types';

const MAX_CONCURRENCY = 10;
/** Records handed out per batch at the end of a cycle. */
const HOST_BATCH = 2_000;
const MAX_TOP = 10_000;
/**
 * Machines per page by default ($top allows 10,000): 10 calls for 50,000 devices, far under the
 * 100/min of the class, and half the page the poller parses at once.
 */
const MACHINE_PAGE = 5_000;
/**
 * Export records per page by default: a page is parsed whole (≈ 1 KB a record), and 8,000-record
 * pages kept a 50,000-host cycle's peak RSS near 270 MB where 10,000 made it 375–430 MB; 50,000
 * hosts (≈ 230,000 records) still take 29 calls, under the export's 30 per minute.
 */
const BULK_PAGE = 8_000;

type Machine = Record<string, unknown>;

/** Defender assesses onboarded devices only (a missing status counts as onboarded). */
const isOnboarded = (m: Machine) => m.onboardingStatus === undefined || m.onboardingStatus === null || String(m.onboardingStatus).toLowerCase() === 'onboarded';

export class DefenderConnector {
  readonly tenantId: string;
  readonly clientId: string;
  /** What the last finished cycle did (source, calls, retries, 429s). */
  lastReport: CycleReport | undefined;
  private readonly http: HttpClient;
  private readonly api: DefenderApi;
  private readonly tokens: TokenProvider;
  private readonly mcasTokens: TokenProvider;
  private readonly logger: Logger;
  private readonly clock: LimiterClock;
  private readonly concurrency: number;
  private readonly retry: RetryPolicy;

  constructor(private readonly o: DefenderConnectorOptions) {
    this.tenantId = o.tenantId;
    this.clientId = o.clientId;
    this.logger = (o.logger ?? silentLogger).child('defender');
    this.clock = realClock(o.now ?? Date.now);
    this.retry = { ...DEFAULT_RETRY, ...o.retry };
    this.concurrency = Math.max(1, Math.min(MAX_CONCURRENCY, Math.floor(o.concurrency ?? MAX_CONCURRENCY)));
    const rateScale = o.rateScale ?? 1;
    if (!(rateScale > 0)) throw new RangeError('rateScale must be a positive number.');
    // Errors' hints name who should answer at each host: the sign-in (Entra ID) or the Defender API.
    const idpHost = URL.canParse(o.idpUrl ?? DEFAULT_IDP_URL) ? new URL(o.idpUrl ?? DEFAULT_IDP_URL).hostname : '';
    const peer = (host: string) => (host === idpHost ? 'the Microsoft Entra ID sign-in' : 'the Microsoft Defender for Endpoint API');
    this.http = new HttpClient({ tls: o.tls ?? { mode: 'system' }, timeoutMs: o.timeoutMs ?? 60_000, maxBodyBytes: o.maxBodyBytes ?? 64 * 1024 * 1024, logger: this.logger.child('http'), peer });
    const tokenOpts = { http: this.http, idpUrl: o.idpUrl ?? DEFAULT_IDP_URL, tenantId: o.tenantId, clientId: o.clientId, secrets: o.secrets, now: this.clock.now, logger: this.logger, retry: this.retry };
    this.tokens = new TokenProvider({ ...tokenOpts, resource: DEFENDER_RESOURCE });
    this.mcasTokens = new TokenProvider({ ...tokenOpts, resource: MCAS_RESOURCE });
    const limits = { ...DOCUMENTED_LIMITS, ...o.limits };
    const limiter = (cls: EndpointClass) => new SlidingWindowLimiter(scaleWindows(limits[cls], rateScale), this.clock);
    this.api = new DefenderApi({
      http: this.http,
      apiUrl: o.apiUrl ?? DEFAULT_API_URL,
      tokens: this.tokens,
      limiters: { machines: limiter('machines'), vulnerabilities: limiter('vulnerabilities'), bulk: limiter('bulk') },
      clock: this.clock,
      retry: this.retry,
      rateScale,
      logger: this.logger,
    });
  }

  /**
   * Which of the five required permissions are granted, and what to fix (spec §5). Always asks
   * for fresh tokens, so a permission granted a minute ago shows up.
   */
  diagnose(signal?: AbortSignal): Promise<DefenderDiagnosis> {
    this.tokens.clear();
    this.mcasTokens.clear();
    return diagnose({ defender: this.tokens, mcas: this.mcasTokens }, this.clientId, signal);
  }

  /**
   * Connector Test's API checks: one small page of each API the poll reads, through the same calls
   * (limits, retries, a 403 explained from the token). Resolves once the API answered, or rejects
   * with the call's error.
   */
  async probeMachines(signal?: AbortSignal): Promise<void> {
    try {
      await this.api.page('machines', this.api.url('/api/machines?$top=1'), 'listed the devices', signal);
    } catch (e) {
      // The API answers 404 when the tenant has no recent devices: it answered.
      if (isAppError(e) && e.status === 404) return;
      throw await this.explain(e, 'machines');
    }
  }

  async probeVulnerabilities(signal?: AbortSignal): Promise<void> {
    try {
      await this.api.page('bulk', this.api.url('/api/machines/SoftwareVulnerabilitiesByMachine?pageSize=1'), 'read the vulnerabilities export', signal);
    } catch (e) {
      throw await this.explain(e, 'bulk');
    }
  }

  /** Pages of Machine entities ($top 5,000 by default, at most 10,000, following @odata.nextLink). */
  async *listMachines(signal?: AbortSignal): AsyncGenerator<Machine[]> {
    const top = Math.max(1, Math.min(MAX_TOP, Math.floor(this.o.machinePageSize ?? MACHINE_PAGE)));
    let pages = 0;
    try {
      for await (const page of this.api.pages('machines', this.api.url(`/api/machines?$top=${top}`), 'listed the devices', signal)) {
        pages += 1;
        yield page.filter((m): m is Machine => typeof m === 'object' && m !== null && machineIdOf(m) !== undefined);
      }
    } catch (e) {
      // The API answers 404 when the tenant has no recent devices.
      if (isAppError(e) && e.status === 404 && pages === 0) return;
      throw await this.explain(e, 'machines');
    }
  }

  /**
   * One full cycle: every machine as a HostRecord with its CVE facts. Each listed page is turned
   * into compact records at once (the raw Machine entities are not kept); after the CVE phase the
   * records go out in batches of 2,000. With `onHosts` each batch goes there and is dropped, and
   * the promise resolves to an empty array.
   */
  async poll(opts: PollOptions = {}): Promise<HostRecord[]> {
    const { signal } = opts;
    const started = performance.now();
    this.api.counters = { calls: { machines: 0, vulnerabilities: 0, bulk: 0 }, retries: 0, throttled: 0, pages: { machines: 0, vulnerabilities: 0, bulk: 0 } };
    const fetchedBefore = this.tokens.fetched;
    const progress: PollProgress = { phase: 'token', machines: 0, vulnerabilitiesDone: 0 };
    const emit = (patch: Partial<PollProgress>) => {
      Object.assign(progress, patch);
      opts.onProgress?.({ ...progress });
    };
    try {
      emit({});
      await this.tokens.get(signal);
      emit({ phase: 'machines' });
      const ctx = { connectorId: this.o.connectorId ?? this.tenantId, tenantId: this.tenantId };
      const records = new Map<string, HostRecord>();
      const onboarded = new Set<string>();
      for await (const page of this.listMachines(signal)) {
        for (const m of page) {
          const id = machineIdOf(m)!;
          records.set(id, hostRecord(m, NO_CVES, ctx));
          if (isOnboarded(m)) onboarded.add(id);
          else onboarded.delete(id);
        }
        emit({ machines: records.size });
      }
      const total = records.size;
      const { facts, source, fallbackReason } = await this.vulnerabilities(total, [...onboarded], emit, signal);
      onboarded.clear();
      const out: HostRecord[] = [];
      let batch: HostRecord[] = [];
      const flush = async () => {
        if (signal?.aborted) throw cancelledError('The Defender poll');
        if (opts.onHosts) await opts.onHosts(batch);
        else for (const h of batch) out.push(h);
        batch = [];
      };
      // Deleting as we go lets each emitted record be collected once its batch is consumed.
      for (const [id, h] of records) {
        records.delete(id);
        batch.push({ ...h, defender: { ...h.defender!, ...facts(id) } });
        if (batch.length >= HOST_BATCH) await flush();
      }
      if (batch.length > 0) await flush();
      if (signal?.aborted) throw cancelledError('The Defender poll');
      this.lastReport = this.report(source, fallbackReason, this.api.counters, this.tokens.fetched - fetchedBefore, started);
      emit({ phase: 'done' });
      this.logger.info('defender cycle done', { hosts: total, source, calls: this.api.counters.calls, retries: this.api.counters.retries, throttled: this.api.counters.throttled });
      return out;
    } catch (e) {
      if (signal?.aborted) throw cancelledError('The Defender poll');
      throw e;
    }
  }

  private async vulnerabilities(
    machines: number,
    onboarded: string[],
    emit: (p: Partial<PollProgress>) => void,
    signal?: AbortSignal,
  ): Promise<{ facts: (id: string) => CveFacts; source: 'bulk' | 'per-machine'; fallbackReason?: string }> {
    if ((this.o.vulnerabilitySource ?? 'bulk') === 'bulk') {
      try {
        const agg = await this.bulk(machines, emit, signal);
        emit({ vulnerabilitiesDone: machines });
        return { facts: (id) => agg.factsFor(id), source: 'bulk' };
      } catch (e) {
        if (!isAppError(e) || (e.status !== 403 && e.status !== 404)) throw e;
        // A token without Vulnerability.Read.All fails per machine too: say so now.
        const why = explainForbidden(await this.tokens.claims(signal), 'bulk', this.clientId);
        if (e.status === 403 && why) throw why;
        this.logger.warn('bulk vulnerability export refused, falling back to per-device calls', { status: e.status, code: e.details?.vendorCode });
        const facts = await this.perMachine(machines, onboarded, emit, signal);
        return { facts: (id) => facts.get(id) ?? NO_CVES, source: 'per-machine', fallbackReason: `${e.status} ${String(e.details?.vendorCode ?? '')}`.trim() };
      }
    }
    const facts = await this.perMachine(machines, onboarded, emit, signal);
    return { facts: (id) => facts.get(id) ?? NO_CVES, source: 'per-machine' };
  }

  private async bulk(machines: number, emit: (p: Partial<PollProgress>) => void, signal?: AbortSignal): Promise<CveAggregator> {
    emit({ phase: 'vulnerabilities', source: 'bulk', vulnerabilitiesDone: 0, exportRows: 0 });
    const size = Math.max(1, Math.min(200_000, Math.floor(this.o.bulkPageSize ?? BULK_PAGE)));
    const agg = new CveAggregator();
    const first = this.api.url(`/api/machines/SoftwareVulnerabilitiesByMachine?pageSize=${size}`);
    for await (const page of this.api.pages('bulk', first, 'exported the software vulnerabilities', signal)) {
      for (const row of page) agg.add(row);
      emit({ vulnerabilitiesDone: Math.min(machines, agg.devices), exportRows: agg.rows });
    }
    return agg;
  }

  /** Per-device CVEs, ≤ 10 calls in flight; devices Defender does not assess (not onboarded) are skipped. */
  private async perMachine(machines: number, assessed: string[], emit: (p: Partial<PollProgress>) => void, signal?: AbortSignal): Promise<Map<string, CveFacts>> {
    emit({ phase: 'vulnerabilities', source: 'per-machine', vulnerabilitiesDone: 0, exportRows: undefined });
    const out = new Map<string, CveFacts>();
    let done = machines - assessed.length;
    // Vendor time the calls need at the documented pace (e.g. 50/min: 1 000 devices ≈ 20 min).
    const windows = { ...DOCUMENTED_LIMITS, ...this.o.limits }.vulnerabilities;
    const estimateMin = Math.max(...windows.map((w) => Math.floor(Math.max(0, assessed.length - 1) / w.calls) * w.windowMs)) / 60_000;
    this.logger.info('per-device vulnerability calls', { devices: assessed.length, skippedNotOnboarded: done, estimatedVendorMinutes: Math.round(estimateMin) });
    await mapPool(
      assessed,
      this.concurrency,
      async (id, _i, poolSignal) => {
        const list: unknown[] = [];
        try {
          const url = this.api.url(`/api/machines/${pathSegment(id, 'machine ID')}/vulnerabilities`);
          for await (const page of this.api.pages('vulnerabilities', url, `read the CVEs of device ${id}`, poolSignal)) list.push(...page);
        } catch (e) {
          // ResourceNotFound: the device left between the listing and this call.
          if (!(isAppError(e) && e.status === 404)) throw await this.explain(e, 'vulnerabilities');
        }
        out.set(id, factsFromVulnerabilities(list));
        emit({ vulnerabilitiesDone: (done += 1) });
      },
      signal,
    );
    return out;
  }

  /** A 403 explained from the token's roles (missing or Delegated permission). */
  private async explain(e: unknown, cls: EndpointClass): Promise<unknown> {
    if (!isAppError(e) || e.status !== 403) return e;
    try {
      return explainForbidden(await this.tokens.claims(), cls, this.clientId) ?? e;
    } catch {
      return e;
    }
  }

  private report(source: 'bulk' | 'per-machine', fallbackReason: string | undefined, c: CallCounters, tokenFetches: number, started: number): CycleReport {
    return {
      source,
      ...(fallbackReason ? { fallbackReason } : {}),
      calls: { ...c.calls },
      retries: c.retries,
      throttled: c.throttled,
      tokensFetched: Math.max(0, tokenFetches),
      machinePages: c.pages.machines,
      bulkPages: c.pages.bulk,
      durationMs: Math.round(performance.now() - started),
    };
  }

  /** Closes the connections. */
  close(): Promise<void> {
    return this.http.close();
  }
}
