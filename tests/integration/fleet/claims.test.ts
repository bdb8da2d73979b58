/**
 * Claims on a private PostgreSQL cluster (issue 24.2, C-67): workers claiming at once get disjoint
 * connectors; a held claim is taken over only after its lease lapsed; a cycle commits only while its
 * worker holds the claim, and releases it in the same transaction, so a worker whose claim was
 * taken over can never store a second poll of the tenant.
 */
import { describe, expect, it } from 'vitest';
import { FleetClaims } from '../../../electron/edr/fleet/claims';
import { migrateFleet } from '../../../electron/edr/fleet/fleet-connectors';
import { openPgEdrStore } from '../../../electron/edr/store/edr-pg';
import { withTransaction, type PgPool } from '../../../electron/store/postgres';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { usePostgres } from '../../support/postgres';
import { until } from '../../support/until';

const pg = usePostgres();

async function team(connectors: number): Promise<PgPool> {
  const { pool } = await pg.freshDatabase('claims');
  await migrateFleet(pool);
  for (let i = 0; i < connectors; i += 1) {
    await pool.query('INSERT INTO fleet_connectors (id, config) VALUES ($1, $2)', [`c${i}`, JSON.stringify({ id: `c${i}`, enabled: true, pollIntervalMinutes: 10 })]);
    await pool.query('INSERT INTO fleet_claims (connector_id) VALUES ($1)', [`c${i}`]);
  }
  return pool;
}

const lapsed = (pool: PgPool, id: string) => until(`the lease of ${id} lapsed`, async () => (await pool.query<{ ok: boolean }>('SELECT lease_until < now() AS ok FROM fleet_claims WHERE connector_id = $1', [id])).rows[0]?.ok || undefined, 10_000);

describe('claims', () => {
  it('workers claiming at once share the due connectors without overlap; a held claim is not taken until its lease lapses', async () => {
    const pool = await team(12);
    const workers = ['a', 'b', 'c'].map((w) => new FleetClaims(pool, w, 60_000));
    const got = await Promise.all(workers.map((w) => w.claim(5)));
    const ids = got.flat().map((c) => c.connectorId);
    expect(ids).toHaveLength(12);
    expect(new Set(ids).size).toBe(12);
    expect(await workers[0]!.claim(5)).toEqual([]);

    // c0's holder stopped renewing: its lease lapses, and another worker takes it over.
    const holder = got.findIndex((g) => g.some((c) => c.connectorId === 'c0'));
    await pool.query("UPDATE fleet_claims SET lease_until = now() - interval '1 second' WHERE connector_id = 'c0'");
    const short = new FleetClaims(pool, 'short', 200);
    const [extra] = await short.claim(5);
    expect(extra).toEqual({ connectorId: 'c0', previousWorker: ['a', 'b', 'c'][holder], poll: true, rescoreRequests: 0 });
    expect(await workers[1]!.claim(5)).toEqual([]);
    await lapsed(pool, extra!.connectorId);
    const taken = await workers[1]!.claim(5);
    expect(taken).toEqual([{ connectorId: extra!.connectorId, previousWorker: 'short', poll: true, rescoreRequests: 0 }]);
    // The one that lost it hears so when it renews.
    expect(await short.renew([extra!.connectorId])).toEqual([extra!.connectorId]);
  });

  it('a worker whose claim was taken over cannot commit its cycle; the holder commits and releases the claim in one transaction', async () => {
    const pool = await team(1);
    const store = await openPgEdrStore(pool);
    const a = new FleetClaims(pool, 'a', 200);
    const b = new FleetClaims(pool, 'b', 60_000);
    expect(await a.claim(1)).toHaveLength(1);
    const cycleA = await store.beginCycle('c0', 'falcon', 't', new Date());
    await store.stageScores(cycleA, 'c0', makeScoredHosts(3, { cycleSalt: 1 }));
    await lapsed(pool, 'c0');
    expect(await b.claim(1)).toEqual([{ connectorId: 'c0', previousWorker: 'a', poll: true, rescoreRequests: 0 }]);
    // B has not interrupted A's cycle yet: A's cycle is still running, and still its commit is refused.
    expect((await store.cycle(cycleA))?.status).toBe('running');
    await expect(store.commitCycleFenced(cycleA, new Date(), (c, id) => a.releaseWithCommit(c, id, 10, cycleA))).rejects.toThrow(/taken over by b/);
    expect((await store.cycle(cycleA))?.status).toBe('running');
    expect(await store.latestCycles()).toEqual([]);

    expect(await store.interruptCycles('c0', new Date())).toBe(1);
    const cycleB = await store.beginCycle('c0', 'falcon', 't', new Date());
    await store.stageScores(cycleB, 'c0', makeScoredHosts(3, { cycleSalt: 2 }));
    expect(await store.commitCycleFenced(cycleB, new Date(), (c, id) => b.releaseWithCommit(c, id, 10, cycleB))).toBe(3);
    const claim = (await pool.query<{ worker: string | null; last_worker: string; last_cycle_id: string; future: boolean }>("SELECT worker, last_worker, last_cycle_id, due_at > now() + interval '9 minutes' AS future FROM fleet_claims WHERE connector_id = 'c0'")).rows[0]!;
    expect(claim).toEqual({ worker: null, last_worker: 'b', last_cycle_id: String(cycleB), future: true });
    // Not due again: nobody claims it.
    expect(await a.claim(1)).toEqual([]);
  });

  it('while a commit holds the claim, another worker cannot take it even with the lease lapsed, and after the commit it is not due', async () => {
    const pool = await team(1);
    const a = new FleetClaims(pool, 'a', 200);
    const b = new FleetClaims(pool, 'b', 60_000);
    expect(await a.claim(1)).toHaveLength(1);
    await lapsed(pool, 'c0');
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const isLocked = new Promise<void>((resolve) => (locked = resolve));
    const commit = withTransaction(pool, async (c) => {
      await a.releaseWithCommit(c, 'c0', 10, 1);
      locked();
      await held;
    });
    await isLocked;
    expect(await b.claim(1)).toEqual([]);
    release();
    await commit;
    expect(await b.claim(1)).toEqual([]);
    expect((await pool.query("SELECT worker FROM fleet_claims WHERE connector_id = 'c0'")).rows[0]).toEqual({ worker: null });
  });
});
