/**
 * The fleet worker in this process (issue 24.2) on a private PostgreSQL cluster, with a vendor
 * stand-in that answers at once (the real vendors run in fleet.test.ts): many cycles ending
 * together on a small connection pool are all committed and published, each once.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FleetWorker } from '../../../electron/app/fleet-worker';
import { migrateFleet } from '../../../electron/edr/fleet/fleet-connectors';
import type { PublishTarget, ScoreMessage } from '../../../electron/edr/publisher';
import { openPgEdrStore } from '../../../electron/edr/store/edr-pg';
import { createMemoryLogger } from '../../../electron/log';
import { openPostgres, type PgPool } from '../../../electron/store/postgres';
import { newWorkerKeyPair } from '../../../electron/store/sealed-box';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { usePostgres } from '../../support/postgres';
import { until } from '../../support/until';

const pg = usePostgres();
const pools: PgPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.end()));
});

const connector = (i: number) => ({
  id: `c${i}`,
  vendor: 'defender',
  name: `Tenant ${i}`,
  enabled: true,
  tenantId: `00000000-0000-4000-8000-00000000000${i}`,
  clientId: `00000000-0000-4000-8000-10000000000${i}`,
  pollIntervalMinutes: 10,
  tls: { mode: 'system' },
  notAssessed: 'fail-closed',
  source: 'ui',
  createdAt: '2026-11-29T00:00:00.000Z',
  updatedAt: '2026-11-29T00:00:00.000Z',
});

describe('fleet worker', () => {
  it('six cycles ending at once on a pool of three connections are each committed and published once', async () => {
    const db = await pg.freshDatabase('worker');
    await migrateFleet(db.pool);
    for (let i = 0; i < 6; i += 1) {
      await db.pool.query('INSERT INTO fleet_connectors (id, config) VALUES ($1, $2)', [`c${i}`, JSON.stringify(connector(i))]);
      await db.pool.query('INSERT INTO fleet_claims (connector_id) VALUES ($1)', [`c${i}`]);
    }
    const pool = openPostgres({ url: db.url, max: 3 });
    pools.push(pool);
    const store = await openPgEdrStore(pool);
    const sent: ScoreMessage[] = [];
    const target: PublishTarget = { name: 'memory', send: async (m) => void sent.push(...m) };
    const worker = new FleetWorker({
      pool,
      store,
      keys: await newWorkerKeyPair(),
      targets: () => [target],
      logger: createMemoryLogger(),
      // The vendor stand-in: five hosts at once, the same instant for every connector.
      runtimeFor: () => ({ poll: async () => makeScoredHosts(5).map((s) => s.host) }),
      concurrency: 6,
      publishDelayMs: 0,
      claimEveryMs: 60_000,
    });
    await worker.start();
    try {
      await until('six cycles published', async () => Number((await db.pool.query<{ n: string }>('SELECT count(*) AS n FROM edr.cycles WHERE published_at IS NOT NULL')).rows[0]!.n) === 6 || undefined, 30_000);
    } finally {
      await worker.stop(0);
    }
    expect(new Set(sent.map((m) => m.messageId)).size).toBe(6);
    expect(sent).toHaveLength(6);
    expect(sent.every((m) => m.hosts.length === 5)).toBe(true);
  }, 60_000);
});
