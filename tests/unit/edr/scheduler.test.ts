import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectorRegistry } from '../../../electron/edr/registry';
import { EdrScheduler, realTimers, type ConnectorRuntime, type CycleProgress } from '../../../electron/edr/scheduler';
import { createMemoryLogger } from '../../../electron/log';
import { EdrDb } from '../../../electron/edr/store/edr-db';
import { SqliteEdrStore } from '../../../electron/edr/store/sqlite-edr-store';
import type { HostRecord } from '../../../shared/model/edr';
import { memorySettings, memoryVault } from '../../support/memory-ports';
import { makeScoredHosts } from '../../support/edr-fixtures';

const hosts = (n: number): HostRecord[] => makeScoredHosts(n).map((s) => s.host);
let dir: string;
let store: EdrDb;

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(new Date('2026-11-22T00:00:00Z'));
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-sched-'));
  store = new EdrDb(path.join(dir, 'edr.db'));
});
afterEach(() => {
  vi.useRealTimers();
  store.close();
  rmSync(dir, { recursive: true, force: true });
});

type Score = (h: HostRecord) => { score: number; band: 'Trustworthy'; contributions: [] };
const byHostnameLength: Score = (h) => ({ score: h.hostname.length, band: 'Trustworthy', contributions: [] });

async function setup(runtime: ConnectorRuntime, interval = 10, score: Score = byHostnameLength, vault = memoryVault()) {
  const registry = new ConnectorRegistry(memorySettings(), vault);
  const logger = createMemoryLogger();
  const { connector } = await registry.register({ vendor: 'falcon', tenantId: 'a7e4b19a5b7721ad42279aef0d12274e', clientId: '2e7d2c03a9507ae265ecf5b5356885a5', clientSecret: 'Secret-Value-123', pollIntervalMinutes: interval });
  const published: number[] = [];
  const progress: CycleProgress[] = [];
  const scheduler = new EdrScheduler({
    registry,
    store: new SqliteEdrStore(store),
    runtimeFor: () => runtime,
    score,
    publish: async (id) => void published.push(id),
    onProgress: (p) => progress.push(p),
    logger,
    timers: realTimers,
  });
  return { registry, connector, scheduler, published, progress, logger };
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

  it('a save during a running cycle: the cycle ends, the next is scheduled, and Poll now starts a new one', async () => {
    let release!: () => void;
    const poll = vi.fn(() => new Promise<HostRecord[]>((resolve) => (release = () => resolve(hosts(3)))));
    const { scheduler, connector, registry } = await setup({ poll });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(scheduler.status(connector.id).running).toBe(true);
    // A rename: same endpoint, the cycle goes on.
    await registry.register({ id: connector.id, vendor: 'falcon', tenantId: 'a7e4b19a5b7721ad42279aef0d12274e', clientId: '2e7d2c03a9507ae265ecf5b5356885a5', name: 'Renamed', pollIntervalMinutes: 10 });
    release();
    const first = await scheduler.runNow(connector.id);
    expect(store.lastCycle(connector.id)).toMatchObject({ id: first, status: 'completed' });
    expect(scheduler.status(connector.id)).toMatchObject({ running: false, nextCycleAt: expect.any(String) });
    const second = scheduler.runNow(connector.id);
    expect(scheduler.status(connector.id).running).toBe(true);
    // The store numbers the cycle (a promise) before the connector is polled.
    await vi.advanceTimersByTimeAsync(0);
    expect(poll).toHaveBeenCalledTimes(2);
    release();
    expect(await second).toBeGreaterThan(first);
    await scheduler.stop();
  });

  it('a save that moves the connector to another endpoint cancels its running cycle, with the reason', async () => {
    const poll = vi.fn(({ signal }: { signal: AbortSignal }) => new Promise<HostRecord[]>((_resolve, reject) => signal.addEventListener('abort', () => reject(new Error('aborted')))));
    const { scheduler, connector, registry } = await setup({ poll });
    scheduler.start();
    await vi.advanceTimersByTimeAsync(5_000);
    const running = scheduler.runNow(connector.id);
    await registry.register({ id: connector.id, vendor: 'falcon', tenantId: 'a7e4b19a5b7721ad42279aef0d12274e', clientId: '2e7d2c03a9507ae265ecf5b5356885a5', apiUrl: 'https://127.0.0.1:9', clientSecret: 'Other-Secret-456', pollIntervalMinutes: 10 });
    await expect(running).rejects.toThrow(/cancelled/);
    expect(store.lastCycle(connector.id)).toMatchObject({ status: 'cancelled', error: expect.stringMatching(/moved to another address/) });
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

  it('a connector deleted while its timer is due: no cycle, a logged skip, and runNow answers a rejected promise, never a throw', async () => {
    // The registry removes the connector from the settings, then deletes its secret, and tells its listeners only after: the keychain is held here.
    const vault = memoryVault();
    let releaseDelete!: () => void;
    const held = new Promise<void>((resolve) => (releaseDelete = resolve));
    const deleteSecret = vault.delete.bind(vault);
    vault.delete = async (key) => {
      await held;
      await deleteSecret(key);
    };
    const poll = vi.fn(async () => hosts(1));
    const { scheduler, connector, registry, logger } = await setup({ poll }, 10, byHostnameLength, vault);
    scheduler.start();
    await vi.advanceTimersByTimeAsync(4_999);
    const removed = registry.remove(connector.id);
    // The first pull's timer fires while the registry has not told the scheduler yet.
    await vi.advanceTimersByTimeAsync(1);
    expect(poll).not.toHaveBeenCalled();
    expect(logger.lines.filter((l) => l.includes('the connector no longer exists') && l.includes(connector.id))).toHaveLength(1);
    expect(scheduler.status(connector.id)).toEqual({ running: false });
    // Asked directly (the CLI, Poll now): a rejected promise with the registry's reason.
    let answer: Promise<number> | undefined;
    expect(() => (answer = scheduler.runNow(connector.id))).not.toThrow();
    await expect(answer).rejects.toThrow('That connector no longer exists.');
    releaseDelete();
    expect(await removed).toBe(true);
    await scheduler.stop();
  });

  describe('a cycle handed out in batches (onHosts)', () => {
    /** A promise with its resolve function, for driving the runtime double step by step. */
    const deferred = () => {
      let resolve!: () => void;
      const promise = new Promise<void>((r) => (resolve = r));
      return { promise, resolve };
    };

    /**
     * A runtime double that hands out batch i only when the test calls `hand(i)`, and answers once
     * the scheduler has taken it; with `failAfter` the poll fails (when released) instead of handing out that batch.
     */
    function batchedRuntime(batches: HostRecord[][], opts: { failAfter?: number } = {}) {
      const go = batches.map(() => deferred());
      const taken = batches.map(() => deferred());
      const total = batches.reduce((n, b) => n + b.length, 0);
      const runtime: ConnectorRuntime = {
        poll: async ({ signal, onProgress, onHosts }) => {
          if (!onHosts) throw new Error('the scheduler must ask for batches');
          const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve()));
          onProgress({ phase: 'devices', done: total, total: null });
          for (const [i, batch] of batches.entries()) {
            await Promise.race([go[i]!.promise, aborted]);
            if (opts.failAfter === i) throw new Error('HTTP 500 from the vendor after two batches');
            onProgress({ phase: 'vulnerabilities', done: i * batch.length, total });
            await onHosts(batch);
            taken[i]!.resolve();
          }
          return [];
        },
      };
      return {
        runtime,
        /** Hands out batch i and waits until the scheduler has scored and staged it. */
        hand: async (i: number) => {
          go[i]!.resolve();
          await taken[i]!.promise;
        },
        release: (i: number) => go[i]!.resolve(),
      };
    }

    /** One completed cycle of 5 hosts first, so there is a previous cycle to keep showing. */
    async function previousCycle(scheduler: EdrScheduler, connectorId: string, runtime: { next: ConnectorRuntime | undefined }) {
      runtime.next = { poll: async () => hosts(5) };
      const id = await scheduler.runNow(connectorId);
      expect(store.cycle(id)).toMatchObject({ status: 'completed', hosts: 5 });
      return id;
    }

    const split = (all: HostRecord[], size: number) => Array.from({ length: Math.ceil(all.length / size) }, (_, i) => all.slice(i * size, (i + 1) * size));

    it('stores every batch, shows the previous cycle until the last one is committed, then the whole new cycle at once', async () => {
      const current: { next: ConnectorRuntime | undefined } = { next: undefined };
      const unscorable = (h: HostRecord) => h.hostname === 'host-6.corp.example';
      const { scheduler, connector, progress } = await setup({ poll: (o) => current.next!.poll(o) }, 10, (h) => {
        if (unscorable(h)) throw new Error('no exposure data');
        return byHostnameLength(h);
      });
      const first = await previousCycle(scheduler, connector.id, current);
      const all = makeScoredHosts(12, { cycleSalt: 1 }).map((s) => s.host);
      const b = batchedRuntime(split(all, 4));
      current.next = b.runtime;
      progress.length = 0;
      const run = scheduler.runNow(connector.id);
      const second = store.lastCycle(connector.id)!.id;
      expect(second).not.toBe(first);

      for (const [i, staged] of [
        [0, 4],
        [1, 7],
      ] as const) {
        await b.hand(i);
        // The next batch is still pending: what was handed out is staged, and nothing of it is visible.
        expect(store.stagedCount(second)).toBe(staged);
        expect(store.cycle(second)?.status).toBe('running');
        const latest = store.latestScores({ connectorId: connector.id });
        expect(latest).toHaveLength(5);
        expect(new Set(latest.map((r) => r.cycleId))).toEqual(new Set([first]));
        expect(store.hostDetail(connector.id, all[0]!.hostId)?.host.hostname).toBe('host-0.corp.example');
        expect(store.history(connector.id, all[0]!.hostId).map((h) => h.cycleId)).toEqual([first]);
      }
      await b.hand(2);
      expect(await run).toBe(second);

      expect(store.cycle(second)).toMatchObject({ status: 'completed', hosts: 11 });
      expect(store.stagedCount()).toBe(0);
      const latest = store.latestScores({ connectorId: connector.id });
      expect(latest).toHaveLength(11);
      expect(new Set(latest.map((r) => r.cycleId))).toEqual(new Set([second]));
      expect(latest.map((r) => r.hostId).sort()).toEqual(all.filter((h) => !unscorable(h)).map((h) => h.hostId).sort());
      // History grows with change only: the host scored the same in both cycles, so its first score is its history.
      expect(store.history(connector.id, all[0]!.hostId).map((h) => h.cycleId)).toEqual([first]);
      // Scoring counts the hosts handed out against the connector's total, skipped ones included; storing is the commit.
      const scoring = progress.filter((p) => p.phase === 'scoring').map((p) => [p.done, p.total]);
      expect(scoring).toEqual([
        [4, 12],
        [8, 12],
        [12, 12],
      ]);
      expect(progress.find((p) => p.phase === 'storing')).toMatchObject({ done: 0, total: 11 });
      expect(progress.at(-1)).toMatchObject({ phase: 'completed', done: 11, total: 11, message: '1 host(s) had no data to score and were skipped.' });
      await scheduler.stop();
    });

    it('a cycle that fails after two batches leaves no staged rows, and the previous cycle stays visible', async () => {
      const current: { next: ConnectorRuntime | undefined } = { next: undefined };
      const { scheduler, connector, published } = await setup({ poll: (o) => current.next!.poll(o) });
      const first = await previousCycle(scheduler, connector.id, current);
      const b = batchedRuntime(split(makeScoredHosts(12, { cycleSalt: 1 }).map((s) => s.host), 4), { failAfter: 2 });
      current.next = b.runtime;
      const run = scheduler.runNow(connector.id);
      const outcome = run.catch((e: unknown) => e);
      const second = store.lastCycle(connector.id)!.id;
      await b.hand(0);
      await b.hand(1);
      expect(store.stagedCount(second)).toBe(8);
      b.release(2);
      expect(await outcome).toMatchObject({ message: expect.stringContaining('after two batches') });

      expect(store.cycle(second)).toMatchObject({ status: 'failed', hosts: 0 });
      expect(store.stagedCount()).toBe(0);
      const latest = store.latestScores({ connectorId: connector.id });
      expect(latest).toHaveLength(5);
      expect(new Set(latest.map((r) => r.cycleId))).toEqual(new Set([first]));
      await vi.advanceTimersByTimeAsync(120_000);
      expect(published).toEqual([first]);
      await scheduler.stop();
    });

    it('a cycle cancelled between batches leaves no staged rows and stages nothing after the cancel', async () => {
      const current: { next: ConnectorRuntime | undefined } = { next: undefined };
      const { scheduler, connector } = await setup({ poll: (o) => current.next!.poll(o) });
      const first = await previousCycle(scheduler, connector.id, current);
      const b = batchedRuntime(split(makeScoredHosts(12, { cycleSalt: 1 }).map((s) => s.host), 4));
      current.next = b.runtime;
      const outcome = scheduler.runNow(connector.id).catch((e: unknown) => e);
      const second = store.lastCycle(connector.id)!.id;
      await b.hand(0);
      expect(store.stagedCount(second)).toBe(4);
      expect(scheduler.cancel(connector.id)).toBe(true);
      // The runtime hands out its next batch anyway: the scheduler refuses it.
      b.release(1);
      expect(await outcome).toMatchObject({ code: 'cancelled' });
      expect(store.cycle(second)).toMatchObject({ status: 'cancelled', hosts: 0 });
      expect(store.stagedCount()).toBe(0);
      expect(new Set(store.latestScores({ connectorId: connector.id }).map((r) => r.cycleId))).toEqual(new Set([first]));
      await scheduler.stop();
    });
  });
});
