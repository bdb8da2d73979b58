/**
 * Main for the renderer tests, in a worker thread of its own (a plain Node realm, as Electron's
 * main is a process of its own): the real `createApp` over the plain-Node adapters, with the
 * project's simulators on loopback at the network edge. The test side (main-bridge.ts) talks to
 * it by message: each request and answer is structured-cloned, as IPC does.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parentPort } from 'node:worker_threads';
import { createNodeAdapters } from '../../../../electron/app/node-platform';
import { createApp, type App, type CreateAppOptions } from '../../../../electron/app/services';
import { createLogger } from '../../../../electron/log';
import { startMgmtSimulator, type MgmtSimulatorOptions } from '@northbound/simulators/testing';
import { defenderTenant, startDefenderSimulator } from '@northbound/simulators/testing/defender';
import { startFalconSimulator } from '@northbound/simulators/testing/falcon';
import type { DefenderTenantConfig } from '@northbound/simulators/internal/defender/types';
import type { FalconSimulatorOptions } from '@northbound/simulators/internal/falcon/types';

export interface StartOptions {
  mode?: 'desktop' | 'browser';
  passphrase?: string;
  /** Reuse the data folder of a main closed with `keepData` (a restart). */
  dataDir?: string;
  app?: Pick<CreateAppOptions, 'openDemo' | 'demoEdr' | 'demoInventory' | 'inventory' | 'edr' | 'alarms'>;
}

/** A Defender tenant of the simulator (defaults: 10 hosts, seed 1, every permission granted). */
export type DefenderTenantSpec = Partial<DefenderTenantConfig>;

export type Request =
  | { op: 'start'; opts: StartOptions }
  | { op: 'invoke'; appId: number; channel: string; request: unknown }
  | { op: 'appCall'; appId: number; path: string; args: unknown[] }
  | { op: 'close'; appId: number; keepData?: boolean }
  | { op: 'node'; appId: number; opts: Omit<MgmtSimulatorOptions, 'clock' | 'logger'> }
  | { op: 'falcon'; appId: number; opts: Omit<FalconSimulatorOptions, 'clock' | 'logger'> }
  | { op: 'defender'; appId: number; tenants: DefenderTenantSpec[] }
  | { op: 'sim'; appId: number; simId: number; path: string; args?: unknown[]; set?: unknown };

export type Message =
  | { type: 'answer'; id: number; ok: true; value: unknown }
  | { type: 'answer'; id: number; ok: false; error: string }
  | { type: 'event'; appId: number; event: string; payload: unknown };

interface Running {
  app: App;
  dataDir: string;
  sims: Map<number, { close(): Promise<void> }>;
  off: () => void;
}

const port = parentPort!;
const apps = new Map<number, Running>();
let seq = 0;

function running(appId: number): Running {
  const r = apps.get(appId);
  if (!r) throw new Error(`main ${appId} is not running`);
  return r;
}

/** Follows a dotted path from `root`; returns the holder and the last key. */
function walk(root: unknown, dotted: string): { holder: Record<string, unknown>; key: string } {
  const keys = dotted.split('.');
  let holder = root as Record<string, unknown>;
  for (const k of keys.slice(0, -1)) holder = holder[k] as Record<string, unknown>;
  return { holder, key: keys.at(-1)! };
}

/** Calls a method (or reads/sets a property) at a dotted path, answering something cloneable. */
async function reach(root: unknown, dotted: string, args: unknown[] | undefined, set: unknown): Promise<unknown> {
  const { holder, key } = walk(root, dotted);
  if (set !== undefined) {
    holder[key] = set;
    return undefined;
  }
  const v = holder[key];
  const out = typeof v === 'function' ? await (v as (...a: unknown[]) => unknown).apply(holder, args ?? []) : v;
  return out === undefined ? undefined : JSON.parse(JSON.stringify(out)) as unknown;
}

function describeSim(simId: number, sim: object): Record<string, unknown> {
  const out: Record<string, unknown> = { simId };
  for (const [k, v] of Object.entries(sim)) if (typeof v !== 'function' && (typeof v !== 'object' || v === null || Array.isArray(v) || k === 'bootstrapClient')) out[k] = v;
  return JSON.parse(JSON.stringify(out)) as Record<string, unknown>;
}

async function handle(req: Request): Promise<unknown> {
  switch (req.op) {
    case 'start': {
      const dataDir = req.opts.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'nb-ui-')));
      const logger = createLogger(() => undefined, { level: 'error' });
      const adapters = await createNodeAdapters({ dataDir, passphrase: req.opts.passphrase, logger, mode: req.opts.mode ?? 'desktop', demoPorts: { basic: 0, oauth: 0 } });
      const app = await createApp(adapters, { openDemo: false, demoEdr: false, demoSimulators: () => import('@northbound/simulators/testing/demo'), ...req.opts.app });
      const appId = ++seq;
      const off = app.events.subscribe((event, payload) => port.postMessage({ type: 'event', appId, event, payload } satisfies Message));
      apps.set(appId, { app, dataDir, sims: new Map(), off });
      return { appId, dataDir };
    }
    case 'invoke':
      return running(req.appId).app.router.invoke(req.channel, req.request);
    case 'appCall':
      return reach(running(req.appId).app, req.path, req.args, undefined);
    case 'close': {
      const r = apps.get(req.appId);
      if (!r) return undefined;
      apps.delete(req.appId);
      r.off();
      await r.app.shutdown();
      await Promise.allSettled([...r.sims.values()].map((s) => s.close()));
      if (!req.keepData) await rm(r.dataDir, { recursive: true, force: true });
      return undefined;
    }
    case 'node': {
      const r = running(req.appId);
      const sim = await startMgmtSimulator({ seedDevices: 0, seedOrganizations: 1, ...req.opts });
      const simId = ++seq;
      r.sims.set(simId, sim);
      return describeSim(simId, sim);
    }
    case 'falcon': {
      const r = running(req.appId);
      const sim = await startFalconSimulator(req.opts);
      const simId = ++seq;
      r.sims.set(simId, sim);
      return { ...describeSim(simId, sim), baseUrls: sim.baseUrls(), clients: sim.clients };
    }
    case 'defender': {
      const r = running(req.appId);
      const tenants = req.tenants.map((t) => defenderTenant({ hosts: 10, seed: 1, ...t }));
      const sim = await startDefenderSimulator({ tenants });
      const simId = ++seq;
      r.sims.set(simId, sim);
      return { ...describeSim(simId, sim), tenants: tenants.map((t) => ({ tenantId: t.tenantId, clientId: t.clientId, clientSecret: t.clientSecret })) };
    }
    case 'sim': {
      const sim = running(req.appId).sims.get(req.simId);
      if (!sim) throw new Error(`simulator ${req.simId} is not running`);
      return reach(sim, req.path, req.args, req.set);
    }
  }
}

port.on('message', (m: { id: number; req: Request }) => {
  handle(m.req).then(
    (value) => port.postMessage({ type: 'answer', id: m.id, ok: true, value } satisfies Message),
    (e: unknown) => port.postMessage({ type: 'answer', id: m.id, ok: false, error: e instanceof Error ? `${e.message}\n${e.stack ?? ''}` : String(e) } satisfies Message),
  );
});
