/**
 * A small HTTP(S) client on undici: one Agent per origin (host + port) with that connection's
 * TLS trust, per-request timeouts, JSON and form bodies, and every failure as an AppError.
 * Generic on purpose: the management node client and the EDR connectors both use it.
 */
import { Agent, request as undiciRequest } from 'undici';
import { AppError, ErrorCodes, isAppError } from '../../shared/model/errors';
import type { TlsTrust } from '../../shared/model/profile';
import { silentLogger, type Logger } from '../log';
import { explainCertificateFailure, type CertificateProbe } from './certificate-failure';
import { timeoutError, transportError, type Endpoint } from './net-errors';
import { inspectCertificate } from './probe';
import { createTlsOptions } from './tls-options';
import { cancelledError, withRetries } from './retry';

export interface HttpClientOptions {
  /** Trust for every origin this client talks to. */
  tls: TlsTrust;
  /** Default per-request timeout (whole request, body included). Default 15 s. */
  timeoutMs?: number;
  logger?: Logger;
  /** Upper bound of a response body. Default 16 MiB. */
  maxBodyBytes?: number;
  /** Who this client talks to at a host, in words, for the hints of its errors (net-errors.ts); default the management node. */
  peer?: string | ((host: string) => string | undefined);
  /** Reads the presented certificate after a trust failure (tests may replace it). */
  probe?: CertificateProbe;
  /**
   * Send an idempotent request once more when its kept-alive connection is reset before an
   * answer. For callers without a retry loop of their own (the management node client); the
   * vendor connectors retry, count and back off themselves.
   */
  resendOnReset?: boolean;
}

export interface HttpRequest {
  method: string;
  url: string | URL;
  headers?: Record<string, string>;
  /** Sent as JSON with Content-Type: application/json. */
  json?: unknown;
  /** Sent as application/x-www-form-urlencoded. */
  form?: Record<string, string>;
  /** A raw body; set Content-Type in `headers`. */
  body?: string;
  /** Accept header; default application/json. */
  accept?: string;
  timeoutMs?: number;
  signal?: AbortSignal;
  /**
   * Keep a successful answer as bytes (`HttpResponse.bytes`, its own ArrayBuffer, transferable to
   * a worker) instead of decoding it on this thread: `body` is then '' below status 300. An answer
   * of 300 or more is small and read here (errors), so `body` has its text and `bytes` is there too.
   */
  bytes?: boolean;
}

export interface HttpResponse {
  status: number;
  /** Lower-case header names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The media type without parameters, lower case ('' when absent). */
  contentType: string;
  body: string;
  /** The answer as bytes, when the request asked for them (`HttpRequest.bytes`). */
  bytes?: Uint8Array;
  url: string;
  durationMs: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_BODY = 16 * 1024 * 1024;

function flattenHeaders(h: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

export class HttpClient {
  private readonly agents = new Map<string, Agent>();
  private readonly timeoutMs: number;
  private readonly maxBodyBytes: number;
  private readonly logger: Logger;
  private readonly probe: CertificateProbe;
  private closed = false;

  constructor(private readonly options: HttpClientOptions) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY;
    this.logger = options.logger ?? silentLogger;
    this.probe = options.probe ?? ((host, port) => inspectCertificate(host, port, { timeoutMs: 5_000 }));
  }

  private agentFor(ep: Endpoint): Agent {
    const key = `${ep.host}:${ep.port}`;
    let agent = this.agents.get(key);
    if (!agent) {
      const tls = createTlsOptions(this.options.tls, ep.host);
      // No TLS session resumption: every new connection does the full certificate (and pin) check.
      agent = new Agent({ connect: { ...tls, maxCachedSessions: 0, timeout: this.timeoutMs }, keepAliveTimeout: 10_000 });
      this.agents.set(key, agent);
    }
    return agent;
  }

  async request(req: HttpRequest): Promise<HttpResponse> {
    const url = new URL(req.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const peer = typeof this.options.peer === 'function' ? this.options.peer(host) : this.options.peer;
    const ep: Endpoint = { host, port: Number(url.port) || (url.protocol === 'https:' ? 443 : 80), ...(peer ? { peer } : {}) };
    const timeoutMs = req.timeoutMs ?? this.timeoutMs;
    if (this.closed) throw new AppError(ErrorCodes.cancelled, 'The connection was closed.', 'Open the connection again.');
    if (req.signal?.aborted) throw cancelledError();

    let agent: Agent;
    try {
      agent = this.agentFor(ep);
    } catch (e) {
      throw await this.explain(e, ep, timeoutMs);
    }

    const headers: Record<string, string> = { accept: req.accept ?? 'application/json' };
    let body: string | undefined;
    if (req.json !== undefined) {
      body = JSON.stringify(req.json);
      headers['content-type'] = 'application/json';
    } else if (req.form) {
      body = new URLSearchParams(req.form).toString();
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else if (req.body !== undefined) {
      body = req.body;
    }
    for (const [k, v] of Object.entries(req.headers ?? {})) headers[k.toLowerCase()] = v;

    const controller = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
    const onAbort = () => controller.abort();
    req.signal?.addEventListener('abort', onAbort, { once: true });
    const started = performance.now();
    try {
      const send = () => undiciRequest(url, { dispatcher: agent, method: req.method as 'GET', headers, ...(body !== undefined ? { body } : {}), signal: controller.signal });
      // A kept-alive connection the server closed while idle fails the next request before any
      // answer: an idempotent request is sent once more, on a new connection (resendOnReset).
      const resend = this.options.resendOnReset === true && IDEMPOTENT.has(req.method.toUpperCase());
      const res = await withRetries<Awaited<ReturnType<typeof send>>>(
        async () => {
          try {
            return { kind: 'done', value: await send() };
          } catch (e) {
            if (!isConnectionReset(e) || controller.signal.aborted) throw e;
            return { kind: 'retry', why: 'connection reset', exhausted: () => e as Error };
          }
        },
        {
          policy: { maxAttempts: resend ? 2 : 1, max429: 0, baseDelayMs: 0, maxDelayMs: 0 },
          onRetry: () => this.logger.debug('http retry after a connection reset', { method: req.method, url: `${url.origin}${url.pathname}` }),
        },
      );
      const raw = await this.readBody(res.body, ep, req.bytes === true);
      const flat = flattenHeaders(res.headers);
      const decode = !req.bytes || res.statusCode < 200 || res.statusCode >= 300;
      const response: HttpResponse = {
        status: res.statusCode,
        headers: flat,
        contentType: (flat['content-type'] ?? '').split(';')[0]!.trim().toLowerCase(),
        body: decode ? Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength).toString('utf8') : '',
        ...(req.bytes ? { bytes: raw } : {}),
        url: url.toString(),
        durationMs: Math.round(performance.now() - started),
      };
      this.logger.debug('http', { method: req.method, url: `${url.origin}${url.pathname}`, status: response.status, ms: response.durationMs });
      return response;
    } catch (e) {
      if (timedOut) throw timeoutError(ep, timeoutMs, e);
      if (req.signal?.aborted) throw cancelledError();
      const mapped = await this.explain(e, ep, timeoutMs);
      this.logger.debug('http failed', { method: req.method, url: `${url.origin}${url.pathname}`, code: mapped.code });
      throw mapped;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * The whole body in one Uint8Array. `own`: over an ArrayBuffer of its own, never a view of a
   * pool's (it may be transferred to a worker); else a view when it came in one chunk.
   */
  private async readBody(body: AsyncIterable<Uint8Array>, ep: Endpoint, own: boolean): Promise<Uint8Array> {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += chunk.byteLength;
      if (size > this.maxBodyBytes) {
        throw new AppError(ErrorCodes.unexpectedResponse, `${ep.host}:${ep.port} sent an answer larger than ${Math.round(this.maxBodyBytes / 1048576)} MiB.`, 'Ask for a smaller page of results.', {
          details: { host: ep.host, port: ep.port },
        });
      }
      chunks.push(chunk);
    }
    if (!own && chunks.length === 1) return chunks[0]!;
    // Copied once, into a buffer of its own.
    const out = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      out.set(c, at);
      at += c.byteLength;
    }
    return out;
  }

  private explain(e: unknown, ep: Endpoint, timeoutMs: number): Promise<AppError> {
    const mapped = isAppError(e) ? e : transportError(e, { ...ep, timeoutMs });
    return explainCertificateFailure(mapped, this.options.tls, ep, this.probe);
  }

  /** Closes every connection; later requests fail with `cancelled`. */
  async close(): Promise<void> {
    this.closed = true;
    const agents = [...this.agents.values()];
    this.agents.clear();
    await Promise.allSettled(agents.map((a) => a.close()));
  }
}

const IDEMPOTENT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const RESET_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/** The connection was closed under the request before an answer (not a timeout, not TLS). */
function isConnectionReset(e: unknown): boolean {
  for (let c: unknown = e, depth = 0; c && depth < 4; c = (c as { cause?: unknown }).cause, depth++) {
    if (RESET_CODES.has(String((c as { code?: unknown }).code))) return true;
  }
  return false;
}
