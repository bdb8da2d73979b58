/**
 * The EDR store on PostgreSQL when a worker takes a connector over (issue 24.1, C-61): the running
 * cycles interrupted and their staged rows gone, the old worker's stage and commit refused, its
 * finish changing nothing; a commit racing an interruption: exactly one wins; a cycle staged by one
 * process and committed by another.
 */
import { describe, expect, it } from 'vitest';
import { CYCLE_NOT_RUNNING, CYCLE_STAGED_ELSEWHERE, openPgEdrStore } from '../../../electron/edr/store/edr-pg';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { at, bandsOf, cycle, moved } from '../../support/edr-backends';
import { usePostgres } from '../../support/postgres';

const pg = usePostgres();

describe('EDR store on PostgreSQL: a worker takes a connector over', () => {
  it('interruptCycles marks the connector’s running cycles interrupted and drops their staged rows; the old worker’s stage and commit are refused and change nothing, its finish leaves the mark', async () => {
    const db = await pg.freshDatabase('edr_takeover');
    const oldWorker = await openPgEdrStore(db.pool);
    const newWorker = await openPgEdrStore(pg.pool(db.name));
    expect(oldWorker.interruptedAtOpen).toBe(0);
    const done = await cycle(oldWorker, makeScoredHosts(30), 0);
    const running = await oldWorker.beginCycle('conn-1', 'defender', 't1', at(10));
    const elsewhere = await oldWorker.beginCycle('conn-2', 'defender', 't2', at(10));
    await oldWorker.stageScores(running, 'conn-1', makeScoredHosts(30, { cycleSalt: 3 }));
    await oldWorker.stageScores(elsewhere, 'conn-2', makeScoredHosts(5));

    expect(await newWorker.interruptCycles('conn-1', at(20))).toBe(1);
    expect(await newWorker.interruptCycles('conn-1', at(20))).toBe(0);
    expect(await newWorker.cycle(running)).toMatchObject({ status: 'interrupted', finishedAt: at(20).toISOString(), hosts: 0 });
    const staged = async (id: number) =>
      Number((await db.pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM edr.staged_scores WHERE cycle_id = $1', [id])).rows[0]!.n);
    expect([await staged(running), await staged(elsewhere)]).toEqual([0, 5]);

    await expect(oldWorker.stageScores(running, 'conn-1', makeScoredHosts(3))).rejects.toMatchObject({ code: CYCLE_NOT_RUNNING });
    await expect(oldWorker.commitCycle(running, at(21))).rejects.toMatchObject({ code: CYCLE_NOT_RUNNING, message: expect.stringContaining('interrupted') });
    await oldWorker.finishCycle(running, 'failed', { hosts: 0, error: 'refused', at: at(22) });
    expect(await newWorker.cycle(running)).toMatchObject({ status: 'interrupted', finishedAt: at(20).toISOString() });
    expect(await staged(running)).toBe(0);
    expect((await newWorker.latestCycles()).map((c) => c.cycleId)).toEqual([done]);
    expect((await newWorker.hostScore('conn-1', makeScoredHosts(1)[0]!.host.hostId))!.cycleId).toBe(done);
    // The other connector's cycle was not touched and commits.
    expect(await oldWorker.commitCycle(elsewhere, at(23))).toBe(5);
    await expect(oldWorker.commitCycle(999, at(23))).rejects.toMatchObject({ code: 'not_found' });
  });

  it('a commit and an interruption racing: exactly one wins, and the cycle ends completed with its hosts or interrupted with none', async () => {
    const db = await pg.freshDatabase('edr_race');
    const a = await openPgEdrStore(db.pool);
    const b = await openPgEdrStore(pg.pool(db.name));
    for (let round = 0; round < 5; round++) {
      const id = await a.beginCycle('conn-1', 'defender', 't1', at(round * 10));
      await a.stageScores(id, 'conn-1', makeScoredHosts(200, { cycleSalt: round }));
      const [commit, interrupted] = await Promise.allSettled([a.commitCycle(id, at(round * 10 + 1)), b.interruptCycles('conn-1', at(round * 10 + 1))]);
      const row = await b.cycle(id);
      if (commit.status === 'fulfilled') {
        expect(interrupted).toEqual({ status: 'fulfilled', value: 0 });
        expect(row).toMatchObject({ status: 'completed', hosts: 200 });
      } else {
        expect(interrupted).toEqual({ status: 'fulfilled', value: 1 });
        expect(commit.reason).toMatchObject({ code: CYCLE_NOT_RUNNING });
        expect(row).toMatchObject({ status: 'interrupted', hosts: 0 });
      }
      expect(Number((await db.pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM edr.staged_scores')).rows[0]!.n)).toBe(0);
    }
  });

  it('a cycle is staged and committed by one process: another is refused and changes nothing (the hosts seen as stored live with the stager), the stager then commits it whole', async () => {
    const db = await pg.freshDatabase('edr_handover');
    const stager = await openPgEdrStore(db.pool);
    const committer = await openPgEdrStore(pg.pool(db.name));
    const hosts = makeScoredHosts(80);
    await cycle(stager, hosts, 0);
    const next = hosts.map((h, i) => (i % 10 === 0 ? moved(h, 97) : h));
    const id = await stager.beginCycle('conn-1', 'defender', 't1', at(10));
    await stager.stageScores(id, 'conn-1', next.slice(0, 50));
    await stager.stageScores(id, 'conn-1', next.slice(50));
    const before = await committer.cycle(id);
    await expect(committer.commitCycle(id, at(11))).rejects.toMatchObject({ code: CYCLE_STAGED_ELSEWHERE, message: expect.stringContaining('another process') });
    await expect(committer.stageScores(id, 'conn-1', next.slice(0, 5))).rejects.toMatchObject({ code: CYCLE_STAGED_ELSEWHERE });
    expect(await committer.cycle(id)).toEqual(before);
    expect(await stager.stagedHosts(id)).toBe(80);
    expect(await stager.commitCycle(id, at(11))).toBe(80);
    expect((await committer.cycleSummary(id)).bands).toEqual(bandsOf(next));
    expect((await stager.changes('conn-1', id)).moved).toBe(next.filter((h, i) => h.score !== hosts[i]!.score).length);
    expect(await stager.hostScore('conn-1', next[10]!.host.hostId)).toMatchObject({ score: 97, band: 'High Risk', cycleId: id });
    // Another process's next cycle, after a commit it did not make, stores and counts alike.
    const after = await cycle(committer, hosts, 20);
    expect((await committer.cycleSummary(after)).bands).toEqual(bandsOf(hosts));
  });

  it('a batch the server refuses leaves nothing of it, in the database or in the process: the cycle goes on and commits the batches that were staged', async () => {
    const db = await pg.freshDatabase('edr_failed_batch');
    const s = await openPgEdrStore(db.pool);
    const hosts = makeScoredHosts(40);
    await cycle(s, hosts, 0);
    const id = await s.beginCycle('conn-1', 'defender', 't1', at(10));
    await s.stageScores(id, 'conn-1', hosts.slice(0, 20));
    // A server that refuses a batch (here a rule of its own on the hostname); host 3, seen as stored before, is changed in it.
    await db.pool.query(`ALTER TABLE edr.staged_scores ADD CONSTRAINT refuse_one CHECK (hostname <> 'refused-by-the-server')`);
    const refused = { ...hosts[25]!, score: 96, host: { ...hosts[25]!.host, hostname: 'refused-by-the-server' } };
    await expect(s.stageScores(id, 'conn-1', [...hosts.slice(20, 25), moved(hosts[3]!, 95), refused])).rejects.toThrow(/refuse_one/);
    expect(await s.stagedHosts(id)).toBe(20);
    expect(Number((await db.pool.query<{ n: string }>('SELECT COUNT(*) AS n FROM edr.staged_scores WHERE cycle_id = $1', [id])).rows[0]!.n)).toBe(0);
    expect(await s.stageScores(id, 'conn-1', hosts.slice(26))).toBe(14);
    expect(await s.commitCycle(id, at(11))).toBe(34);
    expect(await s.hostScore('conn-1', hosts[3]!.host.hostId)).toMatchObject({ score: hosts[3]!.score, cycleId: id });
    expect((await s.cycleSummary(id)).bands).toEqual(bandsOf([...hosts.slice(0, 20), ...hosts.slice(26)]));
    await db.pool.query('ALTER TABLE edr.staged_scores DROP CONSTRAINT refuse_one');
    // The connector's next cycle stages and commits as any other; a vendor's stray NUL (which PostgreSQL's text cannot hold) is stored as U+FFFD.
    hosts[3] = { ...hosts[3]!, host: { ...hosts[3]!.host, hostname: 'ws\u0000003', lastSeen: '2026-11-22T10:00:00.000Z\u0000' } };
    const next = await cycle(s, hosts, 20);
    expect((await s.cycleSummary(next)).bands).toEqual(bandsOf(hosts));
    const r = await db.pool.query<{ hostname: string; last_seen: string }>('SELECT h.hostname, s.last_seen FROM edr.hosts h JOIN edr.host_seen s USING (hid) WHERE h.host_id = $1', [hosts[3]!.host.hostId]);
    expect(r.rows).toEqual([{ hostname: 'ws\uFFFD003', last_seen: '2026-11-22T10:00:00.000Z\uFFFD' }]);
    // Seen as stored in the cycle after (a light row): its last-seen time goes through the commit's arrays.
    hosts[3] = { ...hosts[3]!, host: { ...hosts[3]!.host, lastSeen: 'seen\u0000again' } };
    await cycle(s, hosts, 30);
    expect((await db.pool.query<{ last_seen: string }>('SELECT s.last_seen FROM edr.hosts h JOIN edr.host_seen s USING (hid) WHERE h.host_id = $1', [hosts[3]!.host.hostId])).rows[0]!.last_seen).toBe('seen\uFFFDagain');
  });
});
