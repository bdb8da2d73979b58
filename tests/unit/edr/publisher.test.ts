/** The publisher's decisions, with in-memory targets (the real broker and node are in tests/integration/edr/publish.test.ts). */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NO_TARGET, ScorePublisher, type PublishTarget, type ScoreMessage } from '../../../electron/edr/publisher';
import { createMemoryLogger } from '../../../electron/log';
import { EdrDb, type CycleRow } from '../../../electron/edr/store/edr-db';
import { SqliteEdrStore } from '../../../electron/edr/store/sqlite-edr-store';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { until } from '../../support/until';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup(targets: PublishTarget[], retryDelayMs = 1) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-pub-unit-'));
  dirs.push(dir);
  const store = new EdrDb(path.join(dir, 'edr.db'));
  const settled: CycleRow[] = [];
  const list = { targets };
  const publisher = new ScorePublisher({ store: new SqliteEdrStore(store), targets: () => list.targets, logger: createMemoryLogger(), retryDelayMs, onSettled: (c) => settled.push(c) });
  const cycle = () => {
    const id = store.beginCycle('conn-1', 'falcon', 'cid-1', new Date());
    store.writeScores(id, 'conn-1', makeScoredHosts(7));
    store.finishCycle(id, 'completed', { hosts: 7, at: new Date() });
    return id;
  };
  return { store, publisher, settled, list, cycle };
}

const memoryTarget = (name: string, fail = 0): PublishTarget & { got: ScoreMessage[][]; tries: number } => {
  let failures = fail;
  const got: ScoreMessage[][] = [];
  return {
    name,
    got,
    tries: 0,
    async send(m) {
      this.tries += 1;
      if (failures > 0) {
        failures -= 1;
        throw new Error(`${name} is down`);
      }
      got.push(m);
    },
  };
};

describe('ScorePublisher', () => {
  it('with no target the cycle stays pending with the reason, and goes out once a target exists', async () => {
    const { store, publisher, settled, list, cycle } = setup([]);
    const id = cycle();
    await publisher.publishCycle(id);
    expect(store.cycle(id)).toMatchObject({ publishedAt: null, publishError: NO_TARGET });
    expect(settled.map((c) => c.id)).toEqual([id]);
    const node = memoryTarget('mgmt:lab');
    list.targets = [node];
    await publisher.publishPending();
    expect(node.got).toHaveLength(1);
    expect(node.got[0]![0]).toMatchObject({ cycleId: id, summary: { hosts: 7 } });
    expect(store.cycle(id)).toMatchObject({ publishError: null });
    expect(store.cycle(id)?.publishedAt).not.toBeNull();
    await publisher.publishPending();
    expect(node.got).toHaveLength(1);
  });

  it('records which target failed, tells the window, and never resends to the target that worked', async () => {
    const node = memoryTarget('mgmt:lab');
    const broker = memoryTarget('amqp:northbound.zta', 3);
    const { store, publisher, settled, cycle } = setup([node, broker]);
    const id = cycle();
    await expect(publisher.publishCycle(id)).rejects.toThrow(/amqp:northbound.zta is down/);
    expect(store.cycle(id)?.publishError).toMatch(/^Publication failed for amqp:northbound.zta: amqp:northbound.zta is down/);
    expect(settled).toHaveLength(1);
    await publisher.publishCycle(id);
    expect(node.got).toHaveLength(1);
    expect(broker.got).toHaveLength(1);
    expect(store.cycle(id)?.publishError).toBeNull();
    expect(settled).toHaveLength(2);
  });

  it('stop ends a pause between attempts at once (net/retry, cancellable): the cycle stays pending as cancelled, no target is tried again', async () => {
    const broker = memoryTarget('amqp:northbound.zta', Number.POSITIVE_INFINITY);
    const node = memoryTarget('mgmt:lab', Number.POSITIVE_INFINITY);
    // Ten minutes between attempts: only a cancel ends the first pause before the test's own limit.
    const { store, publisher, settled, cycle } = setup([broker, node], 600_000);
    const id = cycle();
    const run = publisher.publishCycle(id);
    run.catch(() => undefined);
    await until('the first attempt', () => broker.tries === 1);
    await publisher.stop();
    await expect(run).rejects.toThrow(/cancelled/);
    expect(broker.tries).toBe(1);
    expect(node.tries).toBe(0);
    expect(store.cycle(id)).toMatchObject({ publishedAt: null });
    expect(store.cycle(id)?.publishError).toMatch(/^Publication failed for amqp:northbound.zta: The request was cancelled\./);
    expect(settled.map((c) => c.id)).toEqual([id]);
    // Stopped, it starts nothing more.
    await publisher.publishPending();
    expect(broker.tries + node.tries).toBe(1);
  });
});
