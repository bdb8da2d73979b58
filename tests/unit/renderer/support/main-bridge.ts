/**
 * The renderer tests' Bridge to the real main: `createApp` runs in a worker thread
 * (main-worker.ts: a plain Node realm, real SQLite, the router and every service), and this
 * Bridge crosses to it the way the preload and the browser host do: every request and answer is
 * structured-cloned, events arrive from main's own event hub. Nodes and vendors are the
 * project's simulators on loopback, started in the worker by `node()`, `falcon()` and
 * `defender()`, and reached with `sim()`. One worker thread serves every file a vitest worker
 * runs (the renderer project keeps its modules across files); each test gets a fresh main (its
 * own data folder). `closeAll()` (run after each test by support/setup.ts) stops everything a
 * test started.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Bridge, ChannelName, EventName, EventPayload, ParsedRequestOf, ResponseOf } from '../../../../shared/contract';
import type { DefenderTenantSpec, Message, Request, StartOptions } from './main-worker';
import type { FalconSimulatorOptions } from '@northbound/simulators/internal/falcon/types';
import type { MgmtSimulator, MgmtSimulatorOptions, SimUser } from '@northbound/simulators/testing';

const here = path.dirname(fileURLToPath(import.meta.url));
let worker: Worker | undefined;
let seq = 0;
const pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();
const subscribers = new Set<(appId: number, event: string, payload: unknown) => void>();

function theWorker(): Worker {
  if (worker) return worker;
  // The sources bundled once for the run (main-worker-bundle.ts, vitest's globalSetup); without
  // it (NB_MAIN_WORKER_TSX=1, or a runner without that setup) they load through tsx.
  const bundle = process.env.NB_MAIN_WORKER_BUNDLE;
  const entry = bundle && process.env.NB_MAIN_WORKER_TSX !== '1' ? bundle : path.join(here, 'main-worker-entry.mjs');
  const w = new Worker(entry, { workerData: { file: path.join(here, 'main-worker.ts') } });
  w.unref();
  w.on('message', (m: Message) => {
    if (m.type === 'event') {
      for (const s of [...subscribers]) s(m.appId, m.event, m.payload);
      return;
    }
    const p = pending.get(m.id);
    pending.delete(m.id);
    if (m.ok) p?.resolve(m.value);
    else p?.reject(new Error(`main: ${m.error}`));
  });
  w.on('error', (e) => {
    for (const p of pending.values()) p.reject(e);
    pending.clear();
    worker = undefined;
  });
  worker = w;
  return w;
}

function send<T>(req: Request): Promise<T> {
  const id = ++seq;
  return new Promise<T>((resolve, reject) => {
    pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
    theWorker().postMessage({ id, req });
  });
}

const live = new Set<MainBridge>();

/** Stops every main (and its simulators) the current test started. */
export async function closeAll(): Promise<void> {
  const all = [...live];
  live.clear();
  await Promise.allSettled(all.map((m) => m.close()));
}

/** A management node simulator running beside main: what the test needs to know of it. */
export type NodeSim = { simId: number } & Pick<MgmtSimulator, 'basicUrl' | 'oauthUrl' | 'basicPort' | 'oauthPort' | 'fingerprint256' | 'certificatePem' | 'users' | 'bootstrapClient'>;

export interface FalconSim {
  simId: number;
  certificatePem: string;
  baseUrls: Record<string, string>;
  clients: Array<{ clientId: string; clientSecret: string; cid: string; cloud: string }>;
}

export interface DefenderSim {
  simId: number;
  apiUrl: string;
  idpUrl: string;
  certificatePem: string;
  tenants: Array<{ tenantId: string; clientId: string; clientSecret: string }>;
}

export interface NodeProfileOptions {
  name: string;
  authMode?: 'basic' | 'oauth';
  /** Pin the node's certificate (default true); false leaves it for the operator to trust. */
  trust?: boolean;
  /** Sign in after saving (default true when trusted). */
  signIn?: boolean;
  /** Which simulator user the connection uses (default the admin). */
  role?: SimUser['role'];
}

/** A simulator reached through the worker: read, call or set anything on it by a dotted path. */
export interface SimHandle {
  get<T = unknown>(dotted: string): Promise<T>;
  call<T = unknown>(dotted: string, ...args: unknown[]): Promise<T>;
  set(dotted: string, value: unknown): Promise<void>;
}

export class MainBridge implements Bridge {
  readonly calls: { channel: string; request: unknown }[] = [];
  /** main's answers to the window's calls, in the order they came back. */
  readonly answers: { channel: string; answer: { ok: boolean; value?: unknown; error?: { code: string; message: string; hint: string } } }[] = [];
  private readonly listeners = new Map<string, Set<(payload: unknown) => void>>();
  private readonly unsubscribe: () => void;

  private constructor(
    readonly appId: number,
    readonly dataDir: string,
    readonly options: StartOptions,
  ) {
    const sub = (appId: number, event: string, payload: unknown) => {
      if (appId !== this.appId) return;
      for (const l of [...(this.listeners.get(event) ?? [])]) l(payload);
    };
    subscribers.add(sub);
    this.unsubscribe = () => subscribers.delete(sub);
  }

  /**
   * A fresh main on a fresh data folder (or on `opts.dataDir`, a restart), stopped after the test.
   * `shared`: a main for several tests of a file (started in beforeAll, closed by the file's
   * afterAll); those tests must not change what the others read.
   */
  static async start(opts: StartOptions = {}, { shared = false } = {}): Promise<MainBridge> {
    const { appId, dataDir } = await send<{ appId: number; dataDir: string }>({ op: 'start', opts });
    const main = new MainBridge(appId, dataDir, opts);
    if (!shared) live.add(main);
    return main;
  }

  async invoke(channel: string, request: unknown): Promise<unknown> {
    this.calls.push({ channel, request });
    const answer = await send<MainBridge['answers'][number]['answer']>({ op: 'invoke', appId: this.appId, channel, request });
    this.answers.push({ channel, answer });
    return answer;
  }

  /** main's answers to the window's calls of `channel` so far. */
  answersTo(channel: ChannelName): MainBridge['answers'][number]['answer'][] {
    return this.answers.filter((a) => a.channel === channel).map((a) => a.answer);
  }

  on(event: string, listener: (payload: unknown) => void): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener);
    return () => set.delete(listener);
  }

  listenerCount(event: EventName): number {
    return this.listeners.get(event)?.size ?? 0;
  }

  callsTo(channel: ChannelName): unknown[] {
    return this.calls.filter((c) => c.channel === channel).map((c) => c.request);
  }

  /** A channel called by the test itself (set-up, checks), not recorded; fails with main's error. */
  async call<C extends ChannelName>(channel: C, request: ParsedRequestOf<C> | Record<string, unknown> = {}): Promise<ResponseOf<C>> {
    const res = await send<{ ok: boolean; value?: unknown; error?: { code: string; message: string } }>({ op: 'invoke', appId: this.appId, channel, request });
    if (!res.ok) throw new Error(`${channel}: ${res.error?.code} ${res.error?.message}`);
    return res.value as ResponseOf<C>;
  }

  /** Calls a method of main's services by path (e.g. 'edr.store.db.latestScores'). */
  appCall<T = unknown>(dotted: string, ...args: unknown[]): Promise<T> {
    return send<T>({ op: 'appCall', appId: this.appId, path: dotted, args });
  }

  /** The next event of this name that satisfies `match`. */
  next<E extends EventName>(event: E, match: (p: EventPayload<E>) => boolean = () => true, timeoutMs = 15_000): Promise<EventPayload<E>> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => (off(), reject(new Error(`no matching ${event} event within ${timeoutMs} ms`))), timeoutMs);
      const off = this.on(event, (payload) => {
        if (!match(payload as EventPayload<E>)) return;
        clearTimeout(timer);
        off();
        resolve(payload as EventPayload<E>);
      });
    });
  }

  /** A management node simulator on loopback (no devices and one organization unless asked). */
  node(opts: Omit<MgmtSimulatorOptions, 'clock' | 'logger'> = {}): Promise<NodeSim> {
    return send<NodeSim>({ op: 'node', appId: this.appId, opts });
  }

  falcon(opts: Omit<FalconSimulatorOptions, 'clock' | 'logger'> = {}): Promise<FalconSim> {
    return send<FalconSim>({ op: 'falcon', appId: this.appId, opts });
  }

  defender(tenants: DefenderTenantSpec[] = [{}]): Promise<DefenderSim> {
    return send<DefenderSim>({ op: 'defender', appId: this.appId, tenants });
  }

  sim(s: { simId: number }): SimHandle {
    return {
      get: (dotted) => send({ op: 'sim', appId: this.appId, simId: s.simId, path: dotted }),
      call: (dotted, ...args) => send({ op: 'sim', appId: this.appId, simId: s.simId, path: dotted, args }),
      set: (dotted, value) => send({ op: 'sim', appId: this.appId, simId: s.simId, path: dotted, set: value }),
    };
  }

  /** Saves a connection to `sim` through the router, pins its certificate and signs in, as the operator would. */
  async addNodeProfile(sim: NodeSim, o: NodeProfileOptions): Promise<ResponseOf<'profiles.save'>> {
    const authMode = o.authMode ?? 'basic';
    const user = sim.users.find((u) => u.role === (o.role ?? 'admin'))!;
    const saved = await this.call('profiles.save', {
      name: o.name,
      host: '127.0.0.1',
      basicPort: sim.basicPort,
      oauthPort: sim.oauthPort,
      authMode,
      username: user.username,
      password: user.password,
      ...(authMode === 'oauth' ? { oauthClientId: sim.bootstrapClient.clientId, clientSecret: sim.bootstrapClient.clientSecret } : {}),
      tls: { mode: 'pinned' },
    });
    if (o.trust === false) return saved;
    const trusted = await this.call('tls.trust', { profileId: saved.id, fingerprint256: sim.fingerprint256 });
    if (o.signIn ?? true) await this.call('session.signIn', { profileId: saved.id });
    return trusted;
  }

  /** Stops this main and its simulators; `keepData` leaves the data folder for a restart. */
  async close(keepData = false): Promise<void> {
    live.delete(this);
    this.unsubscribe();
    await send({ op: 'close', appId: this.appId, keepData });
  }

  /** Closes this main and starts another on the same data folder, as quitting and reopening the app does. */
  async restart(): Promise<MainBridge> {
    await this.close(true);
    return MainBridge.start({ ...this.options, dataDir: this.dataDir });
  }
}

/**
 * A transport in front of `main` that answers `channel` itself with `answer` and passes every
 * other call and event on: for the window's handling of answers this main would not give (e.g.
 * issues from a main whose schema is newer than the window's).
 */
export function answering(main: MainBridge, channel: ChannelName, answer: unknown): Bridge {
  return {
    invoke: (c, request) => (c === channel ? (main.calls.push({ channel: c, request }), Promise.resolve(structuredClone(answer))) : main.invoke(c, request)),
    on: (event, listener) => main.on(event, listener),
  };
}
