/** The polling alarm source with a fake node: it says what failed, retries, and moves its cursor (MN-AL9, MN-AL12). */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AlarmPageQuery, NodeAlarmApi } from '../../../electron/alarms/node-api';
import { AlarmSource } from '../../../electron/alarms/source';
import { createMemoryLogger } from '../../../electron/log';
import type { AlarmStore } from '../../../electron/alarms/store/alarm-store';
import { openAlarmStore } from '../../support/alarm-fixtures';
import { AppError } from '../../../shared/model/errors';
import { until } from '../../support/until';

let dir: string;
let store: AlarmStore;
let source: AlarmSource | undefined;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-source-'));
  store = openAlarmStore(path.join(dir, 'alarms.db'));
});
afterEach(async () => {
  await source?.stop();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

const record = (object: string, eventMs: number) => ({
  head: { device: 'd', deviceName: 'd', org: 'o', object, type: 't', specificProblem: 's', severity: 'major' as const, cleared: false, text: 'x', lastChangeMs: eventMs },
  changes: [{ eventMs, severity: 'major' as const, text: 'x' }],
  handlings: [],
  messageId: null,
});

describe('a polling alarm source', () => {
  it('reports a failing node in words, retries, then polls from its cursor', async () => {
    let failures = 2;
    const queries: AlarmPageQuery[] = [];
    const node = [record('a', 10_000), record('b', 20_000)];
    const api = {
      async page(q: AlarmPageQuery) {
        queries.push(q);
        if (failures-- > 0) throw new AppError('net.unreachable', 'The node at 127.0.0.1:9182 cannot be reached.', 'Check the address.');
        const items = node.filter((r) => r.head.lastChangeMs > (q.lastChangeAfter ?? -1));
        return { items, records: items.length, total: items.length, unreadable: 0, reasons: [] };
      },
    } as unknown as NodeAlarmApi;
    const logger = createMemoryLogger();
    const states: string[] = [];
    source = await AlarmSource.open({ id: 'p', store, api, pollIntervalMs: 20, marginMs: 1000, timeFloorMs: 0, logger, retry: { baseDelayMs: 10, maxDelayMs: 20 }, onStatus: () => states.push(source!.status().state) });
    source.start();
    await until('the source to fail', () => states.includes('failing'));
    expect(source.status().error).toBe('Polling the node failed: The node at 127.0.0.1:9182 cannot be reached.');
    await until('the source to be live', () => source!.status().state === 'live');
    expect(source.status()).toMatchObject({ source: 'poll', connected: true, error: null, stored: { alarms: 2, changes: 2 } });
    expect((await store.sourceState('p')).cursorMs).toBe(20_000);
    await until('a poll from the cursor less the margin', () => queries.some((q) => q.lastChangeAfter === 20_000 - 1000 - 1));
    expect(logger.lines.some((l) => l.includes('alarm poll failed; retrying'))).toBe(true);
    await source.stop();
    expect(source.status()).toMatchObject({ source: 'none', state: 'stopped' });
  });
});
