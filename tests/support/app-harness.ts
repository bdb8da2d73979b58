/** Starts the whole app in plain Node on a fresh data folder, recording everything that leaves main. */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createNodeAdapters } from '../../electron/app/node-platform';
import { createApp, type App, type CreateAppOptions, type PlatformAdapters } from '../../electron/app/services';
import { createLogger } from '../../electron/log';
import type { UpdaterPort } from '../../electron/app/ports';

export interface AppHarness {
  app: App;
  /** The platform adapters the app was built with (its settings store and vault). */
  adapters: PlatformAdapters;
  dataDir: string;
  /** Every log line written. */
  logs: string[];
  /** Every event pushed towards the window. */
  pushed: string[];
  /** Every answer returned to the window through `call`. */
  answers: string[];
  call<T = unknown>(channel: string, request?: unknown): Promise<T>;
  callRaw(channel: string, request?: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string; message: string; hint: string; details?: Record<string, unknown> } }>;
  /** The text of every file under the data folder. */
  files(): Promise<Array<{ file: string; text: string }>>;
  close(): Promise<void>;
}

/**
 * `dataDir`: start on an existing data folder (a restart); it is left in place at close. Without
 * it the harness makes a fresh one and deletes it at close.
 */
export async function startAppHarness(opts: { passphrase?: string; openDemo?: boolean; app?: CreateAppOptions; dataDir?: string; updater?: UpdaterPort } = {}): Promise<AppHarness> {
  const dataDir = opts.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'nb-app-')));
  const logs: string[] = [];
  const logger = createLogger((line) => logs.push(JSON.stringify(line)), { level: 'debug' });
  const node = await createNodeAdapters({ dataDir, passphrase: opts.passphrase ?? 'test-vault-passphrase-1', logger, mode: 'browser', demoPorts: { basic: 0, oauth: 0 } });
  // A desktop's updater, when a test gives one.
  const adapters: PlatformAdapters = opts.updater ? { ...node, updater: opts.updater } : node;
  // The demo's simulators with their fault switches (tests bend the demo node's answers).
  const app = await createApp(adapters, { openDemo: opts.openDemo ?? false, demoSimulators: () => import('@northbound/simulators/testing/demo'), ...opts.app });
  const pushed: string[] = [];
  const answers: string[] = [];
  app.events.subscribe((event, payload) => pushed.push(JSON.stringify({ event, payload })));
  const callRaw: AppHarness['callRaw'] = async (channel, request = {}) => {
    const res = await app.router.invoke(channel, request);
    answers.push(JSON.stringify(res));
    return res as never;
  };
  return {
    app,
    adapters,
    dataDir,
    logs,
    pushed,
    answers,
    callRaw,
    async call<T>(channel: string, request: unknown = {}) {
      const res = await callRaw(channel, request);
      if (!res.ok) throw Object.assign(new Error(`${channel}: ${res.error?.code} ${res.error?.message}`), { shape: res.error });
      return res.value as T;
    },
    async files() {
      const out: Array<{ file: string; text: string }> = [];
      const walk = async (dir: string): Promise<void> => {
        for (const e of await readdir(dir, { withFileTypes: true })) {
          const p = path.join(dir, e.name);
          if (e.isDirectory()) await walk(p);
          else out.push({ file: p, text: await readFile(p, 'latin1') });
        }
      };
      await walk(dataDir);
      return out;
    },
    async close() {
      await app.shutdown();
      if (!opts.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}
