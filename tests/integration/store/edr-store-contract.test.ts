/**
 * The EDR store's contract (issue 24.1), run against both backends (tests/support/edr-backends.ts):
 * edr.db (SQLite in a temp folder, `openEdrStore`) and the fleet's PostgreSQL (a private cluster, a
 * database per test, `openPgEdrStore`). Cycles staged invisibly and committed at once, history kept
 * by change, repeats in a cycle, band counts and the trend, changes between cycles, publications
 * marked once (also by two callers at once), host scores and history, retention; then one script of
 * calls run on both, whose answers must be equal. PostgreSQL alone: edr-pg-takeover.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { RiskBand, ScoredHost } from '../../../shared/model/edr';
import type { EdrStore } from '../../../electron/edr/store/edr-store';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { at, bandsOf, cycle, edrBackends, emptyZtaColumns, moved, seenLater } from '../../support/edr-backends';
import { usePostgres } from '../../support/postgres';

const backends = edrBackends(usePostgres());

describe.each(backends)('EDR store contract: %s', (_name, open) => {
  it('keeps staged rows out of every view until the commit makes the whole cycle visible at once; a host staged twice keeps its last sighting', async () => {
    const { store: s } = await open();
    const first = await cycle(s, makeScoredHosts(50), 0);
    const next = makeScoredHosts(60, { cycleSalt: 1 });
    const id = await s.beginCycle('conn-1', 'defender', 't1', at(10));
    expect(await s.stageScores(id, 'conn-1', next.slice(0, 30))).toBe(30);
    // Host 0 again in the second batch, with another score: the last sighting counts.
    const again = moved(next[0]!, 99);
    expect(await s.stageScores(id, 'conn-1', [...next.slice(30), again])).toBe(31);
    expect(await s.cycle(id)).toMatchObject({ status: 'running', finishedAt: null, kind: 'poll' });
    expect((await s.latestCycles()).map((c) => c.cycleId)).toEqual([first]);
    expect((await s.hostScore('conn-1', next[55]!.host.hostId))).toBeUndefined();
    expect((await s.hostScore('conn-1', next[0]!.host.hostId))!.cycleId).toBe(first);
    expect(await s.appendRows(emptyZtaColumns(), id, 0, () => 0)).toBe(0);

    expect(await s.commitCycle(id, at(11))).toBe(60);
    expect(await s.cycle(id)).toMatchObject({ status: 'completed', hosts: 60, finishedAt: at(11).toISOString(), startedAt: at(10).toISOString() });
    expect(await s.latestCycles()).toEqual([{ connectorId: 'conn-1', cycleId: id, finishedAt: at(11).toISOString(), kind: 'poll', hosts: 60 }]);
    const cols = emptyZtaColumns();
    expect(await s.appendRows(cols, id, 3, () => 7)).toBe(60);
    expect(cols.hostId).toEqual(next.map((h) => h.host.hostId).sort());
    expect(new Set(cols.connector)).toEqual(new Set([3]));
    expect(await s.hostScore('conn-1', next[0]!.host.hostId)).toMatchObject({ score: 99, band: 'High Risk', cycleId: id });
    expect((await s.cycleSummary(id)).hosts).toBe(60);
    await s.close();
  });

  it('keeps history by change: a host whose score or band did not move adds no history row, one seen later is not rewritten, one changed otherwise is', async () => {
    const o = await open();
    const s = o.store;
    const hosts = makeScoredHosts(100);
    const c1 = await cycle(s, hosts, 0);
    expect(await o.historyRows(c1)).toBe(100);
    const next = hosts.map((h, i) =>
      i === 3 ? moved(h, h.score === 90 ? 91 : 90) : i === 5 ? seenLater(h, '2026-11-23T09:00:00.000Z') : i === 7 ? { ...h, host: { ...h.host, osVersion: '11.0' } } : h,
    );
    const c2 = await s.beginCycle('conn-1', 'defender', 't1', at(10));
    await s.stageScores(c2, 'conn-1', next);
    // Host 3 (score moved) and 7 (OS version) are rewritten; host 5 (only its last-seen time) and the rest are not.
    expect(await o.staged(c2)).toEqual({ full: 2, all: 100 });
    await s.commitCycle(c2, at(11));
    expect(await o.historyRows(c2)).toBe(1);
    const c3 = await cycle(s, next, 20);
    expect(await o.historyRows(c3)).toBe(0);
    expect((await s.scoreHistory('conn-1', hosts[3]!.host.hostId)).map((p) => [p.cycleId, p.score])).toEqual([
      [c1, hosts[3]!.score],
      [c2, next[3]!.score],
      [c3, next[3]!.score],
    ]);
    const five = await s.hostScore('conn-1', hosts[5]!.host.hostId);
    expect(five).toMatchObject({ cycleId: c3, host: { lastSeen: '2026-11-23T09:00:00.000Z', defender: { lastSeen: '2026-11-23T09:00:00.000Z' } } });
    expect((await s.hostScore('conn-1', hosts[7]!.host.hostId))!.host.osVersion).toBe('11.0');
    expect((await s.changes('conn-1', c2)).moved).toBe(1);
    expect((await s.changes('conn-1', c3)).moved).toBe(0);
    await s.close();
  });

  it('a host handed out twice in a cycle keeps its last sighting, whichever rows they made; a cycle whose hosts another commit rewrote while it ran counts its bands as they are stored', async () => {
    const { store: s } = await open();
    const hosts = makeScoredHosts(20);
    await cycle(s, hosts, 0);
    const id = await s.beginCycle('conn-1', 'defender', 't1', at(10));
    // Host 0 as stored, then changed; host 1 changed, then as stored; host 2 as stored twice, seen later the second time.
    await s.stageScores(id, 'conn-1', [hosts[0]!, moved(hosts[1]!, 99), seenLater(hosts[2]!, '2026-11-23T01:00:00.000Z')]);
    await s.stageScores(id, 'conn-1', [moved(hosts[0]!, 95), hosts[1]!, seenLater(hosts[2]!, '2026-11-23T02:00:00.000Z'), ...hosts.slice(3)]);
    expect(await s.commitCycle(id, at(11))).toBe(20);
    expect(await s.hostScore('conn-1', hosts[0]!.host.hostId)).toMatchObject({ score: 95, cycleId: id });
    expect(await s.hostScore('conn-1', hosts[1]!.host.hostId)).toMatchObject({ score: hosts[1]!.score, cycleId: id, host: hosts[1]!.host });
    expect((await s.hostScore('conn-1', hosts[2]!.host.hostId))!.host.lastSeen).toBe('2026-11-23T02:00:00.000Z');
    const listed = [moved(hosts[0]!, 95), ...hosts.slice(1)];
    expect((await s.cycleSummary(id)).bands).toEqual(bandsOf(listed));

    // Y stages every host as stored; X, of the same connector, moves host 5 and commits first: host 5 is stored as X left it.
    const y = await s.beginCycle('conn-1', 'defender', 't1', at(20));
    await s.stageScores(y, 'conn-1', listed);
    const x = await s.beginCycle('conn-1', 'defender', 't1', at(21));
    await s.stageScores(x, 'conn-1', [moved(listed[5]!, listed[5]!.score > 50 ? 10 : 90)]);
    await s.commitCycle(x, at(22));
    expect(await s.commitCycle(y, at(23))).toBe(20);
    expect((await s.cycleSummary(y)).bands).toEqual(bandsOf(listed.map((h, i) => (i === 5 ? moved(h, h.score > 50 ? 10 : 90) : h))));
    // The next cycle lists host 5 as the vendor has it: a change against the store, stored and counted.
    const z = await cycle(s, listed, 30);
    expect((await s.cycleSummary(z)).bands).toEqual(bandsOf(listed));
    expect((await s.hostScore('conn-1', listed[5]!.host.hostId))!.score).toBe(listed[5]!.score);
    await s.close();
  });

  it('counts each cycle’s bands, sums them over connectors in the trend, and lists what changed against the previous cycle', async () => {
    const { store: s } = await open();
    const a = makeScoredHosts(40);
    const b = makeScoredHosts(20, { tenantId: 't2', cycleSalt: 2 });
    const a1 = await cycle(s, a, 0);
    const b1 = await cycle(s, b, 0, 'conn-2');
    // Host 1 of conn-1 enters High Risk; host 2 leaves it (or moves).
    const a2hosts = a.map((h, i) => (i === 1 ? moved(h, 95) : i === 2 ? moved(h, 10) : h));
    const a2 = await cycle(s, a2hosts, 30);
    expect((await s.cycleSummary(a1)).bands).toEqual(bandsOf(a));
    expect((await s.cycleSummary(a2)).bands).toEqual(bandsOf(a2hosts));
    expect(await s.bandTotals([a2, b1])).toEqual(Object.fromEntries(Object.entries(bandsOf(a2hosts)).map(([k, n]) => [k, n + bandsOf(b)[k as RiskBand]])));
    const trend = await s.trend({ connectors: new Set(['conn-1', 'conn-2']) });
    // conn-1 and conn-2 ended within a minute: one moment; then conn-1's second cycle.
    expect(trend.map((p) => p.at)).toEqual([at(1).toISOString(), at(31).toISOString()]);
    expect(trend[1]!.bands['High Risk']).toBe(bandsOf(a2hosts)['High Risk'] + bandsOf(b)['High Risk']);
    const onlyA = await s.trend({ connectors: new Set(['conn-1']), customer: 'cust-a' });
    expect(onlyA.at(-1)!.bands).toEqual(bandsOf(a2hosts.filter((h) => h.host.customerId === 'cust-a')));
    expect(await s.previousCycle('conn-1', a2)).toEqual({ id: a1, at: at(1).toISOString() });
    expect(await s.previousCycle('conn-1', a1)).toBeUndefined();
    const changes = await s.changes('conn-1', a2);
    expect(changes.moved).toBe([1, 2].filter((i) => a2hosts[i]!.score !== a[i]!.score).length);
    expect(changes.enteredHighRisk.map((m) => m.hostId)).toEqual(a[1]!.band === 'High Risk' ? [] : [a[1]!.host.hostId]);
    // Each move carries its host's customer and platform (the report narrows the changes by them, C-95).
    const byId = new Map(a2hosts.map((h) => [h.host.hostId, h.host]));
    const all = [...changes.enteredHighRisk, ...changes.leftHighRisk, ...changes.biggestMovers];
    expect(all.length).toBeGreaterThan(0);
    for (const m of all) expect([m.customerId, m.platform]).toEqual([byId.get(m.hostId)!.customerId, byId.get(m.hostId)!.platform]);
    expect(await s.changes('conn-1', a1)).toEqual({ enteredHighRisk: [], leftHighRisk: [], biggestMovers: [], moved: 0 });
    await s.close();
  });

  it('a failed or cancelled cycle leaves nothing visible and its staged rows go; another running cycle keeps its own', async () => {
    const o = await open();
    const s = o.store;
    const done = await cycle(s, makeScoredHosts(4), 0);
    const [f, c, r] = [await s.beginCycle('conn-1', 'defender', 't1', at(5)), await s.beginCycle('conn-2', 'defender', 't2', at(5)), await s.beginCycle('conn-3', 'defender', 't3', at(5))];
    await s.stageScores(f, 'conn-1', makeScoredHosts(3, { cycleSalt: 4 }));
    await s.stageScores(c, 'conn-2', makeScoredHosts(4));
    await s.stageScores(r, 'conn-3', makeScoredHosts(5));
    await s.finishCycle(f, 'failed', { hosts: 0, error: 'HTTP 500', errorCode: 'http.error', at: at(6) });
    await s.finishCycle(c, 'cancelled', { hosts: 0, error: 'cancelled by the operator', at: at(6) });
    expect([(await o.staged(f)).all, (await o.staged(c)).all, (await o.staged(r)).all]).toEqual([0, 0, 5]);
    expect(await s.cycle(f)).toMatchObject({ status: 'failed', error: 'HTTP 500', errorCode: 'http.error', finishedAt: at(6).toISOString() });
    expect((await s.lastCycle('conn-2'))!.status).toBe('cancelled');
    expect((await s.latestCycles()).map((x) => x.cycleId)).toEqual([done]);
    expect(await s.unpublishedCycles()).toEqual([expect.objectContaining({ id: done })]);
    await s.close();
  });

  it('publishes a cycle once: each mark answers true once, also to two stores (processes) marking at the same moment; only each connector’s newest completed cycle is offered', async () => {
    const o = await open();
    const s = o.store;
    const other = await o.second();
    const old = await cycle(s, makeScoredHosts(5), 0);
    const c1 = await cycle(s, makeScoredHosts(5, { cycleSalt: 1 }), 10);
    const c2 = await cycle(s, makeScoredHosts(3, { tenantId: 't2' }), 10, 'conn-2');
    expect((await s.unpublishedCycles()).map((c) => c.id)).toEqual([c1, c2]);
    await s.recordPublishAttempt(c1, 'broker unreachable');
    expect(await s.cycle(c1)).toMatchObject({ publishAttempts: 1, publishError: 'broker unreachable', publishedAt: null });
    expect(await s.targetPublished(c1, 'amqp')).toBe(false);
    const targets = await Promise.all([s.markTargetPublished(c1, 'amqp', at(20)), other.markTargetPublished(c1, 'amqp', at(20))]);
    expect(targets.filter(Boolean)).toHaveLength(1);
    expect(await other.targetPublished(c1, 'amqp')).toBe(true);
    const marks = await Promise.all([s.markPublished(c1, at(21)), other.markPublished(c1, at(21))]);
    expect(marks.filter(Boolean)).toHaveLength(1);
    expect(await s.markPublished(c1, at(22))).toBe(false);
    expect(await s.cycle(c1)).toMatchObject({ publishedAt: at(21).toISOString(), publishAttempts: 2, publishError: null });
    expect((await s.unpublishedCycles()).map((c) => c.id)).toEqual([c2]);
    expect(await s.cycle(old)).toMatchObject({ publishedAt: null });
    expect((await s.cycleHosts(c2)).map((h) => h.hostId)).toEqual(makeScoredHosts(3).map((h) => h.host.hostId));
    await other.close();
    await s.close();
  });

  it('answers a host’s score with its record and contributions, its history over the last cycles, and the stored records page by page', async () => {
    const { store: s } = await open();
    const hosts = makeScoredHosts(25);
    const ids: number[] = [];
    for (let k = 0; k < 4; k++) ids.push(await cycle(s, hosts.map((h, i) => (i === 0 ? moved(h, 10 + k * 30) : h)), k * 10));
    const score = await s.hostScore('conn-1', hosts[0]!.host.hostId);
    expect(score).toMatchObject({ score: 100, band: 'High Risk', cycleId: ids[3], scoredAt: hosts[0]!.scoredAt, contributions: hosts[0]!.contributions, profiles: null });
    expect(score!.host).toEqual(hosts[0]!.host);
    expect(await s.hostScore('conn-1', 'nobody')).toBeUndefined();
    expect((await s.scoreHistory('conn-1', hosts[0]!.host.hostId, 3)).map((p) => [p.cycleId, p.score, p.band, p.at])).toEqual([
      [ids[1], 40, 'Low Risk', at(11).toISOString()],
      [ids[2], 70, 'Suspicious', at(21).toISOString()],
      [ids[3], 100, 'High Risk', at(31).toISOString()],
    ]);
    const pages: string[][] = [];
    for (let after = ''; ; ) {
      const page = await s.storedRecords('conn-1', ids[3]!, after, 10);
      if (page.length === 0) break;
      pages.push(page.map((h) => h.hostId));
      after = page.at(-1)!.hostId;
    }
    expect(pages.map((p) => p.length)).toEqual([10, 10, 5]);
    expect(pages.flat()).toEqual(hosts.map((h) => h.host.hostId).sort());
    await s.close();
  });

  it('prunes what is older than the retention period but each connector’s newest cycle, its hosts and the score each host had when the kept history starts', async () => {
    const o = await open();
    const s = o.store;
    const hosts = makeScoredHosts(10);
    const day = (d: number) => new Date(Date.UTC(2026, 7, d));
    const run = async (d: number, list: readonly ScoredHost[]) => {
      const id = await s.beginCycle('conn-1', 'defender', 't1', day(d));
      await s.stageScores(id, 'conn-1', list.map((h) => ({ ...h, scoredAt: day(d).toISOString() })));
      await s.commitCycle(id, day(d));
      return id;
    };
    // Day 1: hosts 0-9 (9 leaves after it); day 2: host 0 moves; day 40: host 0 moves again, hosts 0-8.
    const c1 = await run(1, hosts);
    const c2 = await run(2, hosts.slice(0, 9).map((h, i) => (i === 0 ? moved(h, 50) : h)));
    const c3 = await run(40, hosts.slice(0, 9).map((h, i) => (i === 0 ? moved(h, 90) : h)));
    const r = await s.prune(day(45), 30);
    // Cycles 1 and 2 go; host 9 (last seen in cycle 1) goes; host 0 keeps its day-2 row, loses its day-1 row; hosts 1-8 keep their day-1 row.
    expect(r).toEqual({ cycles: 2, hosts: 1, changes: 1 });
    expect(await s.cycle(c1)).toBeUndefined();
    expect(await s.cycle(c2)).toBeUndefined();
    expect(await s.hostScore('conn-1', hosts[9]!.host.hostId)).toBeUndefined();
    expect((await s.scoreHistory('conn-1', hosts[0]!.host.hostId)).map((p) => [p.cycleId, p.score])).toEqual([[c3, 90]]);
    expect(await o.historyRows(c1)).toBe(8);
    expect(await s.prune(day(45), 30)).toEqual({ cycles: 0, hosts: 0, changes: 0 });
    await s.close();
  });
});

/** One script of calls; its answers, in order (cycle ids and times are the same on both: each store starts empty). */
async function script(s: EdrStore): Promise<unknown[]> {
  const out: unknown[] = [];
  const hosts = makeScoredHosts(120);
  const falcon = makeScoredHosts(15, { tenantId: 't2' }).map((h) => ({ ...h, profiles: { lowRisk: h.score < 40 } }));
  const rounds = [hosts, hosts.map((h, i) => (i % 25 === 0 ? moved(h, (h.score + 50) % 101) : i % 7 === 0 ? seenLater(h, '2026-11-23T00:00:00.000Z') : h)), hosts.slice(10)];
  for (const [k, list] of rounds.entries()) {
    out.push(await cycle(s, list, k * 10, 'conn-1', 33));
    out.push(await cycle(s, falcon.map((h, i) => (i === k ? moved(h, 81) : h)), k * 10 + 5, 'conn-2', 7));
  }
  const rescore = await s.beginCycle('conn-1', 'defender', 't1', at(40), 'rescore');
  await s.stageScores(rescore, 'conn-1', hosts.slice(10).map((h) => moved(h, 100 - h.score)));
  out.push(await s.commitCycle(rescore, at(41)));
  const failed = await s.beginCycle('conn-2', 'defender', 't2', at(45));
  await s.finishCycle(failed, 'failed', { hosts: 0, error: 'refused', errorCode: 'http.error', at: at(46) });
  out.push(await s.markPublished(rescore, at(50)), await s.markTargetPublished(rescore, 'amqp', at(50)), await s.targetPublished(rescore, 'amqp'));
  out.push(await s.unpublishedCycles(), await s.latestCycles(), await s.lastCycle('conn-2'), await s.cycle(rescore));
  for (const id of [1, 2, 5, rescore]) out.push(await s.cycleSummary(id), await s.cycleHosts(id), await s.changes(id % 2 ? 'conn-1' : 'conn-2', id, 5), await s.previousCycle('conn-1', id));
  out.push(await s.trend({ connectors: new Set(['conn-1', 'conn-2']) }), await s.trend({ connectors: new Set(['conn-1']), platform: 'Mac' }, 2), await s.bandTotals([rescore, 6, rescore]));
  for (const h of [hosts[0]!, hosts[7]!, hosts[25]!, falcon[1]!]) {
    const c = h.host.tenantId === 't2' ? 'conn-2' : 'conn-1';
    out.push(await s.hostScore(c, h.host.hostId), await s.scoreHistory(c, h.host.hostId), await s.scoreHistory(c, h.host.hostId, 2));
  }
  out.push(await s.storedRecords('conn-1', rescore, hosts[50]!.host.hostId, 5));
  const cols = emptyZtaColumns();
  out.push(await s.appendRows(cols, rescore, 1, (id) => (id === 'cust-a' ? 0 : 1)), await s.appendRows(cols, 6, 2, () => 2), cols);
  out.push(await s.prune(at(60 * 24 * 5), 2), await s.latestCycles(), await s.cycle(1));
  return out;
}

describe('EDR store contract: both backends', () => {
  it('answer the same script of calls (cycles of two connectors, a rescore, a failure, publication, every view, retention) alike', async () => {
    const answers: unknown[][] = [];
    for (const [, open] of backends) {
      const { store } = await open();
      answers.push(await script(store));
      await store.close();
    }
    // Meaningful answers: every cycle stored, the views not empty.
    expect(answers[0]!.slice(0, 7)).toEqual([1, 2, 3, 4, 5, 6, 110]);
    expect((answers[0]!.at(-4) as { hostId: unknown[] }).hostId).toHaveLength(125);
    expect(answers[1]).toEqual(answers[0]);
  });
});
