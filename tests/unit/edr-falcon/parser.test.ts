/**
 * The Falcon parser thread (electron/edr/falcon/falcon-parser.ts): a details answer's bytes move to
 * the thread and come back as the same checked devices main would have read; an unreadable answer
 * is undefined (the call retries); a thread that cannot run makes that answer ask again and later
 * ones read on main (with a warning) until a thread is tried again; an idle thread is closed and a
 * later answer starts a new one; a thread keeps the process alive exactly while answers are on it.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FalconParser, ParserStopped } from '../../../electron/edr/falcon/falcon-parser';
import { createMemoryLogger } from '../../../electron/log';
import { SqlWorker } from '../../../electron/store/sql-worker';
import { readDevicesAnswer } from '../../../electron/edr/falcon/read';

const parsers: FalconParser[] = [];
afterEach(async () => {
  for (const p of parsers.splice(0)) await p.close();
});
const parser = (o: ConstructorParameters<typeof FalconParser>[0] = {}) => {
  const p = new FalconParser(o);
  parsers.push(p);
  return p;
};

const answer = (resources: unknown[]) =>
  new TextEncoder().encode(JSON.stringify({ meta: { query_time: 0.1, pagination: { total: resources.length } }, resources, errors: [] }));
const device = (i: number) => ({
  device_id: `d${i}`,
  cid: 'c1',
  hostname: `host-${i}`,
  platform_name: i % 2 ? 'Windows' : 'Linux',
  os_version: 'Windows 11',
  agent_version: '7.10',
  last_seen: '2026-11-20T10:00:00Z',
  reduced_functionality_mode: 'no',
  // Fields the connector does not read are dropped.
  mac_address: '00-11-22-33-44-55',
});

describe('FalconParser', () => {
  it('reads an answer on its thread: the same devices as on main, the bytes moved (not copied)', async () => {
    const p = parser();
    const resources = [...Array.from({ length: 1_000 }, (_, i) => device(i)), { hostname: 'no id' }, 'not a record'];
    const expected = readDevicesAnswer(answer(resources));
    const bytes = answer(resources);
    const got = await p.devices(bytes);
    expect(got).toEqual(expected);
    expect(got).toMatchObject({ invalid: 2, meta: { pagination: { total: 1_002 } } });
    expect(got!.devices).toHaveLength(1_000);
    expect(got!.devices[0]).not.toHaveProperty('mac_address');
    expect(bytes.byteLength).toBe(0);
    expect(p.stats).toEqual({ onThread: 1, onMain: 0 });
    expect(p.started).toBe(true);
  });

  it('an answer that is not a Falcon envelope is undefined (the API call retries it)', async () => {
    const p = parser();
    await expect(p.devices(new TextEncoder().encode('{"resources": 5}'))).resolves.toBeUndefined();
    await expect(p.devices(new TextEncoder().encode('<html>proxy error</html>'))).resolves.toBeUndefined();
    expect(p.stats.onThread).toBe(2);
  });

  it('a thread that cannot run: that answer asks again (ParserStopped), later ones are read on main with a warning, and after a while a thread is tried again', async () => {
    let now = 1_000_000;
    const logger = createMemoryLogger('warn');
    const p = parser({ entry: '/nonexistent/falcon-parse-thread.cjs', logger, now: () => now, retryThreadMs: 60_000 });
    const stopped = await p.devices(answer([device(1)])).catch((e: unknown) => e);
    expect(stopped).toBeInstanceOf(ParserStopped);
    // In words, without the store's "SQL worker".
    expect((stopped as Error).message).toMatch(/^The thread that reads Falcon's answers stopped \(.+\); the answer is asked for again\.$/);
    expect((stopped as Error).message).not.toMatch(/SQL/);
    expect(p.threaded).toBe(false);
    expect(logger.lines.filter((l) => l.includes('read on main'))).toHaveLength(1);
    const got = await p.devices(answer([device(1), device(2)]));
    expect(got!.devices.map((d) => d.device_id)).toEqual(['d1', 'd2']);
    expect(p.stats).toEqual({ onThread: 0, onMain: 1 });
    now += 60_000;
    expect(p.threaded).toBe(true);
    await expect(p.devices(answer([device(3)]))).rejects.toBeInstanceOf(ParserStopped);
  });

  it('a thread the system refuses to start: answers are read on main at once', async () => {
    const p = parser({
      start: () => {
        throw Object.assign(new Error('Worker initialization failure: 11'), { code: 'ERR_WORKER_INIT_FAILED' });
      },
    });
    const got = await p.devices(answer([device(7)]));
    expect(got!.devices[0]!.device_id).toBe('d7');
    expect(p.stats).toEqual({ onThread: 0, onMain: 1 });
    expect(p.threaded).toBe(false);
  });

  it('a thread keeps the process alive only while answers are on it, also one started while a closed thread still had one', async () => {
    const held = new Map<unknown, number>();
    const ref = vi.spyOn(SqlWorker.prototype, 'ref').mockImplementation(function (this: unknown) {
      held.set(this, (held.get(this) ?? 0) + 1);
    });
    const unref = vi.spyOn(SqlWorker.prototype, 'unref').mockImplementation(function (this: unknown) {
      held.set(this, (held.get(this) ?? 0) - 1);
    });
    try {
      const p = parser();
      const big = answer(Array.from({ length: 20_000 }, (_, i) => device(i)));
      const a = p.devices(big);
      // Shutdown while A is on the first thread; B starts a second one meanwhile.
      const closing = p.close();
      const b = p.devices(answer([device(1)]));
      const workers = [...held.keys()];
      expect(workers).toHaveLength(2);
      // Started unref'd (-1), then ref'd for the answer on it (+1): both threads hold the process.
      expect(workers.map((w) => held.get(w))).toEqual([0, 0]);
      await Promise.all([a, b, closing]);
      expect(workers.map((w) => held.get(w))).toEqual([-1, -1]);
    } finally {
      ref.mockRestore();
      unref.mockRestore();
    }
  });

  it('closes an idle thread; the next answer starts another', async () => {
    const p = parser({ idleMs: 20 });
    await p.devices(answer([device(1)]));
    await vi.waitFor(() => expect(p.started).toBe(false), { timeout: 10_000, interval: 10 });
    const got = await p.devices(answer([device(2)]));
    expect(got!.devices[0]!.device_id).toBe('d2');
    expect(p.stats).toEqual({ onThread: 2, onMain: 0 });
    expect(p.threaded).toBe(true);
  });
});
