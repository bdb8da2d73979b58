import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectorRegistry } from '../../../electron/edr/registry';
import { EdrScheduler, realTimers, type ConnectorRuntime, type CycleProgress } from '../../../electron/edr/scheduler';
import { createMemoryLogger } from '../../../electron/log';
import { EdrStore } from '../../../electron/store/edr-db';
import type { HostRecord } from '../../../shared/model/edr';
import { memorySettings, memoryVault } from '../../support/memory-ports';
import { makeScoredHosts } from '../../support/edr-fixtures';

const hosts = (n: number): HostRecord[] => makeScoredHosts(n).map((s) => s.host);
let dir: string;
let store: EdrStore;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2026-11-22T00:00:00Z'));
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-sched-'));
  store = new EdrStore(path.join(dir, 'edr.db'));
});
afterEach(() => {
  vi.useRealTimers();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function setup(runtime: ConnectorRuntime, interval = 10) {
  const registry = new ConnectorRegistry(memorySettings(), memoryVault());
  const { connector } = await registry.register({ vendor: 'falcon', tenantId: 'cid-1', clientId: 'c', clientSecret: 'Secret-Value-123', pollIntervalMinutes: interval });
  const published: number[] = [];
  const progress: CycleProgress[] = [];
  const scheduler = new EdrScheduler({
    registry,
    store,
    runtimeFor: () => runtime,
    score: (h) => ({ score: h.hostname.length, band: 'Trustworthy', contributions: [] }),
    publish: async (id) => void published.push(id),
    onProgress: (p) => progress.push(p),
    logger: createMemoryLogger(),
    timers: realTimers,
  });
  return { registry, connector, scheduler, published, progress };
}

describe('EDR scheduler', () => {
  it('follows the spec timeline: first pull at 5 s, publication about a minute after collection, then every Poll Interval', async () => {
    const poll = vi.fn(async () => hosts(20));
    const { scheduler, connector, published, progress } = await setup({ poll });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(4_900);
    expect(poll).not.toHaveBeenCalled();
    expect(scheduler.status(connector.id).nextCycleAt).toBe('2026-11-22T00:00:05.000Z');
    await vi.advanceTimersByTimeAsync(100);
    expect(poll).toHaveBeenCalledTimes(1);
    const cycle = store.lastCycle(connector.id)!;
    expect(cycle).toMatchObject({ status: 'completed', hosts: 20 });
    expect(store.latestScores({ connectorId: connector.id })).toHaveLength(20);
    expect(progress.map((p) => p.phase)).toEqual(expect.arrayContaining(['devices', 'scoring', 'storing', 'completed']));
    await vi.advanceTimersByTimeAsync(59_000);
    expect(published).toEqual([]);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(published).toEqual([cycle.id]);
    await vi.advanceTimersByTimeAsync(10 * 60_000 - 60_000 - 1);
    expect(poll).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(poll).toHaveBeenCalledTimes(2);
    await scheduler.stop();
  });

  it('never overlaps cycles of one connector: a slow cycle delays the next, Poll now joins the running one', async () => {
    let release!: () => void;
    const poll = vi.fn(() => new Promise<HostRecord[]>((resolve) => (release = () => resolve(hosts(3)))));
    const { scheduler, connector } = await setup({ poll });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(poll).toHaveBeenCalledTimes(1);
    const joined = scheduler.runNow(connector.id);
    await vi.advanceTimersByTimeAsync(15 * 60_000);
    expect(poll).toHaveBeenCalledTimes(1);
    expect(scheduler.status(connector.id).running).toBe(true);
    release();
    const id = await joined;
    expect(store.cycle(id)?.status).toBe('completed');
    await vi.advanceTimersByTimeAsync(0);
    expect(poll).toHaveBeenCalledTimes(2);
    release();
    await scheduler.stop();
  });

  it('cancels a running cycle; the cycle is marked cancelled and not published, the next one is still scheduled', async () => {
    const poll = vi.fn(({ signal }: { signal: AbortSignal }) => new Promise<HostRecord[]>((_, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))));
    const { scheduler, connector, published } = await setup({ poll });
    const run = scheduler.runNow(connector.id);
    const outcome = run.catch((e: unknown) => e);
    await vi.advanceTimersByTimeAsync(10);
    expect(scheduler.cancel(connector.id)).toBe(true);
    expect(await outcome).toMatchObject({ code: 'cancelled' });
    expect(store.lastCycle(connector.id)).toMatchObject({ status: 'cancelled' });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(published).toEqual([]);
    expect(scheduler.status(connector.id).nextCycleAt).toBeDefined();
    await scheduler.stop();
  });

  it('records a failed cycle with its reason and does not publish it', async () => {
    const poll = vi.fn(async () => {
      throw new Error('token refused: AADSTS7000215');
    });
    const { scheduler, connector, published, progress } = await setup({ poll });
    await expect(scheduler.runNow(connector.id)).rejects.toThrow(/AADSTS7000215/);
    expect(store.lastCycle(connector.id)).toMatchObject({ status: 'failed', error: expect.stringContaining('AADSTS7000215') });
    expect(progress.at(-1)).toMatchObject({ phase: 'failed' });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(published).toEqual([]);
    await scheduler.stop();
  });

  it('stops polling a connector that is disabled, and starts it again when enabled', async () => {
    const poll = vi.fn(async () => hosts(1));
    const { scheduler, connector, registry } = await setup({ poll });
    scheduler.start();
    await registry.setEnabled(connector.id, false);
    await vi.advanceTimersByTimeAsync(60 * 60_000);
    expect(poll).not.toHaveBeenCalled();
    await registry.setEnabled(connector.id, true);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(poll).toHaveBeenCalledTimes(1);
    await scheduler.stop();
  });
});
