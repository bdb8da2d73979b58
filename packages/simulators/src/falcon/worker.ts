/**
 * The Falcon simulator in a worker thread, so a large bench (100,000 hosts) generates and
 * serialises on a second core while the connector parses on the first. The same module is the
 * worker's entry: loaded with `workerData.falconSimulator`, it starts the simulator and answers
 * `stats` and `close` messages. Needs a runtime that loads this .ts file in workers (tsx does);
 * callers fall back to `startFalconSimulator` when it rejects.
 */
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { startFalconSimulator } from './server';
import type { FalconCloud, FalconSimClient, FalconSimulatorOptions } from './types';

/** Options that survive structured cloning (no clock, no logger). */
export type WorkerSimulatorOptions = Omit<FalconSimulatorOptions, 'clock' | 'logger'>;

export interface WorkerSimStats {
  total: number;
  r429: number;
  calls: Record<string, number>;
  maxInFlight: number;
}

export interface FalconWorkerSimulator {
  baseUrls: Partial<Record<FalconCloud, string>>;
  fingerprint256: string;
  certificatePem: string;
  clients: FalconSimClient[];
  stats(): Promise<WorkerSimStats>;
  close(): Promise<void>;
}

type Ready = { type: 'ready'; baseUrls: Partial<Record<FalconCloud, string>>; fingerprint256: string; certificatePem: string; clients: FalconSimClient[] };
type Reply = Ready | { type: 'stats'; stats: WorkerSimStats } | { type: 'closed' } | { type: 'failed'; message: string };

/**
 * Running from TypeScript source (tsx): a worker does not inherit tsx's loader, so it registers
 * tsx's ESM API first. Returns that API's URL, or undefined for compiled JavaScript.
 */
function typeScriptLoader(): string | undefined {
  if (!import.meta.url.endsWith('.ts')) return undefined;
  const resolve = (import.meta as { resolve?: (s: string) => string }).resolve;
  if (typeof resolve !== 'function') throw new Error('Cannot locate tsx for the simulator worker.');
  return resolve('tsx/esm/api');
}

export function startFalconSimulatorInWorker(opts: WorkerSimulatorOptions, timeoutMs = 20_000): Promise<FalconWorkerSimulator> {
  return new Promise((resolve, reject) => {
    let worker: Worker;
    try {
      const workerOpts = { workerData: { falconSimulator: opts } };
      const tsx = typeScriptLoader();
      worker = tsx
        ? new Worker(`import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(import.meta.url)}); })`, { ...workerOpts, eval: true })
        : new Worker(new URL(import.meta.url), workerOpts);
    } catch (e) {
      reject(e);
      return;
    }
    const waiting: { resolve: (r: Reply) => void; reject: (e: Error) => void }[] = [];
    let exited = false;
    worker.once('exit', (code) => {
      exited = true;
      for (const w of waiting.splice(0)) w.reject(new Error(`The Falcon simulator worker exited (${code}).`));
    });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(new Error('The Falcon simulator worker did not start in time.'));
    }, timeoutMs);
    worker.once('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    worker.on('message', (m: Reply) => {
      if (m.type === 'failed') {
        clearTimeout(timer);
        void worker.terminate();
        reject(new Error(m.message));
        return;
      }
      if (m.type !== 'ready') {
        waiting.shift()?.resolve(m);
        return;
      }
      clearTimeout(timer);
      const ask = (msg: 'stats' | 'close') =>
        new Promise<Reply>((res, rej) => {
          if (exited) {
            rej(new Error('The Falcon simulator worker is gone.'));
            return;
          }
          waiting.push({ resolve: res, reject: rej });
          worker.postMessage(msg);
        });
      let closed: Promise<void> | undefined;
      resolve({
        baseUrls: m.baseUrls,
        fingerprint256: m.fingerprint256,
        certificatePem: m.certificatePem,
        clients: m.clients,
        stats: async () => {
          const r = await ask('stats');
          if (r.type !== 'stats') throw new Error('unexpected answer of the Falcon simulator worker');
          return r.stats;
        },
        close: () =>
          (closed ??= (async () => {
            if (!exited) await ask('close').catch(() => undefined);
            await worker.terminate();
          })()),
      });
    });
  });
}

async function runWorker(opts: WorkerSimulatorOptions): Promise<void> {
  const port = parentPort!;
  try {
    const sim = await startFalconSimulator(opts);
    port.on('message', (msg: 'stats' | 'close') => {
      if (msg === 'stats') {
        const s = sim.stats;
        port.postMessage({ type: 'stats', stats: { total: s.total(), r429: s.r429, calls: { ...s.calls }, maxInFlight: s.maxInFlight } } satisfies Reply);
      } else {
        void sim.close().then(() => port.postMessage({ type: 'closed' } satisfies Reply));
      }
    });
    port.postMessage({ type: 'ready', baseUrls: sim.baseUrls(), fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem, clients: sim.clients } satisfies Reply);
  } catch (e) {
    port.postMessage({ type: 'failed', message: e instanceof Error ? e.message : String(e) } satisfies Reply);
  }
}

const data = workerData as { falconSimulator?: WorkerSimulatorOptions } | null;
if (!isMainThread && data?.falconSimulator) void runWorker(data.falconSimulator);
