/**
 * Devices and organizations, measured through the app's own channels against the management
 * node simulator over real HTTPS (basic auth, pinned certificate):
 * - paging in 20,000 devices and 500 organizations, with pages of 500 and against a node that
 *   caps its pages at 50 (MN-47), side by side;
 * - bulk onboarding of N devices at 1, 4 and 10 calls in flight, with a fixed per-call latency on
 *   the node so that the concurrency is what is measured.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { BulkJobState, DeviceRecord } from '../../shared/model/inventory';
import { createNodeAdapters } from '../../electron/app/node-platform';
import { createApp, type App } from '../../electron/app/services';
import { createMemoryLogger } from '../../electron/log';
import { startMgmtSimulator, type MgmtSimulator } from '@northbound/simulators/testing';

export interface NodeRig {
  app: App;
  sim: MgmtSimulator;
  profileId: string;
  /** The app's data folder (its inventory.db). */
  dataDir: string;
  call<T>(channel: string, request: unknown): Promise<T>;
  close(): Promise<void>;
}

/** The app in this process, signed in to a simulator seeded with `organizations` and `devices`. */
export async function startNodeRig(seed: { organizations: number; devices: number }): Promise<NodeRig> {
  const sim = await startMgmtSimulator({ seedOrganizations: seed.organizations, seedDevices: seed.devices });
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-inv-'));
  const adapters = await createNodeAdapters({ dataDir, logger: createMemoryLogger('warn'), mode: 'browser', demoPorts: { basic: 0, oauth: 0 } });
  const app = await createApp(adapters, {});
  const call = async <T>(channel: string, request: unknown): Promise<T> => {
    const res = (await app.router.invoke(channel, request)) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
    if (!res.ok) throw new Error(`${channel}: ${res.error?.code} ${res.error?.message}`);
    return res.value as T;
  };
  const op = sim.users.find((u) => u.role === 'admin')!;
  const profile = await call<{ id: string }>('profiles.save', {
    name: 'Bench node',
    host: '127.0.0.1',
    basicPort: sim.basicPort,
    oauthPort: sim.oauthPort,
    authMode: 'basic',
    username: op.username,
    password: op.password,
    tls: { mode: 'pinned' },
  });
  const cert = await call<{ fingerprint256: string }>('tls.inspect', { profileId: profile.id });
  await call('tls.trust', { profileId: profile.id, fingerprint256: cert.fingerprint256 });
  await call('session.signIn', { profileId: profile.id });
  return {
    app,
    sim,
    profileId: profile.id,
    dataDir,
    call,
    async close() {
      await app.shutdown();
      await sim.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface PagingRow {
  label: string;
  devices: number;
  organizations: number;
  ms: number;
  calls: number;
}

/** Pages everything in twice: pages of 500, then with the node capping pages at `cap`. */
export async function benchPaging(devices: number, organizations: number, cap = 50): Promise<PagingRow[]> {
  const rig = await startNodeRig({ organizations, devices });
  const rows: PagingRow[] = [];
  try {
    for (const [label, pageCap] of [['pages of 500', 0], [`node capping pages at ${cap}`, cap]] as const) {
      rig.sim.faults.pageCap = pageCap;
      const before = rig.sim.stats.requests.length;
      const t0 = performance.now();
      const r = await rig.call<{ devices: number; organizations: number }>('inventory.refresh', { profileId: rig.profileId, what: 'all' });
      const ms = performance.now() - t0;
      if (r.devices !== devices || r.organizations !== organizations) throw new Error(`paged ${r.devices}/${r.organizations}, expected ${devices}/${organizations}`);
      rows.push({ label, devices: r.devices, organizations: r.organizations, ms, calls: rig.sim.stats.requests.length - before });
    }
  } finally {
    await rig.close();
  }
  return rows;
}

export interface BulkRow {
  concurrency: number;
  devices: number;
  ms: number;
  perSecond: number;
  onboarded: number;
}

const benchDevice = (run: number, i: number, org: string): DeviceRecord => ({
  deviceName: `bench-${run}-${String(i).padStart(5, '0')}`,
  siteId: String(100_000 + run * 10_000 + i),
  orgName: org,
  serialNumber: `BENCH${run}${String(i).padStart(6, '0')}`,
  deviceGroup: 'Bench-Branches',
  locationInfo: { country: 'DE', latitude: '52.52', longitude: '13.405' },
});

/** Onboards `devices` new devices per run at each concurrency, with `latencyMs` per node call. */
export async function benchBulkOnboarding(devices: number, concurrencies: readonly number[] = [1, 4, 10], latencyMs = 10): Promise<BulkRow[]> {
  const rig = await startNodeRig({ organizations: 14, devices: 0 });
  const out: BulkRow[] = [];
  try {
    await rig.call('inventory.refresh', { profileId: rig.profileId, what: 'organizations' });
    const org = rig.sim.inventory.organizations().find((o) => o.parent !== null)!.name;
    rig.sim.faults.dataDelayMs = latencyMs;
    for (const [run, concurrency] of concurrencies.entries()) {
      const rows = Array.from({ length: devices }, (_, i) => ({ line: i + 2, device: benchDevice(run + 1, i, org) }));
      const t0 = performance.now();
      let job = await rig.call<BulkJobState>('onboarding.start', { profileId: rig.profileId, rows, concurrency, dryRun: false, deploy: false });
      while (job.state === 'running') {
        await new Promise((r) => setTimeout(r, 20));
        job = await rig.call<BulkJobState>('onboarding.get', { jobId: job.jobId });
      }
      const ms = performance.now() - t0;
      if (job.counts.onboarded !== devices) throw new Error(`onboarded ${job.counts.onboarded} of ${devices} at ${concurrency} in flight: ${job.error ?? JSON.stringify(job.counts)}`);
      out.push({ concurrency, devices, ms, perSecond: devices / (ms / 1000), onboarded: job.counts.onboarded });
    }
  } finally {
    await rig.close();
  }
  return out;
}

export interface CancelBench {
  /** The node's answer time per data call, which a cancel must not wait out. */
  nodeMs: number;
  /** Quit during a refresh: until the refresh answered (cancelled) and the node saw its request aborted. */
  quitRefreshMs: number;
  /** Cancel of a running bulk job: until the job was cancelled (rows in flight end first). */
  cancelJobMs: number;
  /** onboarding.progress events of a whole job against its duration, and the at-most-one-per-100-ms bound. */
  progressEvents: number;
  progressBound: number;
}

/**
 * How promptly cancelling ends work that waits on a slow node (the wall-clock limits that used to
 * sit in unit tests): a refresh when the app quits, a bulk job when the operator cancels it, and
 * how many progress events a job sends against the throttle's bound.
 */
export async function benchCancel(nodeMs = 2_000): Promise<CancelBench> {
  const rig = await startNodeRig({ organizations: 14, devices: 500 });
  const closeRig = rig.close;
  try {
    await rig.call('inventory.refresh', { profileId: rig.profileId, what: 'organizations' });
    const org = rig.sim.inventory.organizations().find((o) => o.parent !== null)!.name;

    // Progress events of a job that runs to its end (fast node).
    const events: number[] = [];
    const off = rig.app.events.subscribe((e) => e === 'onboarding.progress' && events.push(performance.now()));
    const rows = (run: number, n: number) => Array.from({ length: n }, (_, i) => ({ line: i + 2, device: benchDevice(run, i, org) }));
    rig.sim.faults.dataDelayMs = 5;
    const t0 = performance.now();
    let job = await rig.call<BulkJobState>('onboarding.start', { profileId: rig.profileId, rows: rows(7, 300), concurrency: 4, dryRun: false, deploy: false });
    while (job.state === 'running') {
      await new Promise((r) => setTimeout(r, 20));
      job = await rig.call<BulkJobState>('onboarding.get', { jobId: job.jobId });
    }
    const jobMs = performance.now() - t0;
    off();

    // A slow node: cancel a job while rows are in flight.
    rig.sim.faults.dataDelayMs = nodeMs;
    const slow = await rig.call<BulkJobState>('onboarding.start', { profileId: rig.profileId, rows: rows(8, 50), concurrency: 4, dryRun: false, deploy: false });
    await new Promise((r) => setTimeout(r, nodeMs * 1.5));
    const c0 = performance.now();
    await rig.call('onboarding.cancel', { jobId: slow.jobId });
    let state = slow.state;
    while (state === 'running' && performance.now() - c0 < nodeMs * 5) {
      await new Promise((r) => setTimeout(r, 10));
      state = (await rig.call<BulkJobState>('onboarding.get', { jobId: slow.jobId })).state;
    }
    const cancelJobMs = performance.now() - c0;

    // Quit during a refresh whose list page the node answers only after nodeMs.
    const refresh = rig.app.router.invoke('inventory.refresh', { profileId: rig.profileId, what: 'devices' });
    while (![...rig.sim.stats.open].some((r) => r.startsWith('GET /mgmt/sdwan/workflow/devices'))) await new Promise((r) => setTimeout(r, 5));
    const q0 = performance.now();
    await rig.app.shutdown();
    await refresh;
    while (rig.sim.stats.aborted.length === 0 && performance.now() - q0 < nodeMs * 5) await new Promise((r) => setTimeout(r, 5));
    const quitRefreshMs = performance.now() - q0;
    return { nodeMs, quitRefreshMs, cancelJobMs, progressEvents: events.length, progressBound: Math.ceil(jobMs / 100) + 1 };
  } finally {
    await closeRig();
  }
}
