/**
 * History by change (issue 11.5): a host's score history gains a row only when its score or band
 * moves; its whole record is rewritten only when something other than its last-seen time changed;
 * each cycle keeps its band counts per customer and platform.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { EDR_MIGRATIONS, EDR_SCHEMA_VERSION, EdrDb } from '../../../electron/edr/store/edr-db';
import type { ScoredHost } from '../../../shared/model/edr';
import { emptyBandCounts } from '../../../shared/model/zta';
import { makeScoredHosts } from '../../support/edr-fixtures';

const dirs: string[] = [];
const open = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-edr-hist-'));
  dirs.push(dir);
  const file = path.join(dir, 'edr.db');
  return { store: new EdrDb(file), file };
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A store file at schema `version`, opened raw (EdrDb migrates it when it opens it). */
function rawStoreAt(version: number): { file: string; raw: Database.Database } {
  const dir = mkdtempSync(path.join(os.tmpdir(), `nb-edr-v${version}-`));
  dirs.push(dir);
  const file = path.join(dir, 'edr.db');
  const raw = new Database(file);
  for (const step of EDR_MIGRATIONS.slice(0, version)) raw.exec(step);
  raw.pragma(`user_version = ${version}`);
  return { file, raw };
}

let minute = 0;
/** One completed cycle of `hosts` (as the app's poller commits it). */
function cycle(store: EdrDb, hosts: ScoredHost[], connectorId = 'conn-1'): number {
  minute += 10;
  const at = new Date(Date.UTC(2026, 10, 22, 0, minute));
  const id = store.beginCycle(connectorId, 'defender', 't1', at);
  store.stageScores(id, connectorId, hosts);
  store.commitCycle(id, new Date(at.getTime() + 30_000));
  return id;
}

const moved = (h: ScoredHost, score: number): ScoredHost => ({ ...h, score, band: score > 80 ? 'High Risk' : score > 60 ? 'Suspicious' : score > 40 ? 'Moderate Risk' : score > 20 ? 'Low Risk' : 'Trustworthy' });
const seenLater = (h: ScoredHost, lastSeen: string): ScoredHost => ({ ...h, host: { ...h.host, lastSeen, defender: { ...h.host.defender!, lastSeen } } });

/** The band counts a cycle stored, and the same counted from the tables. */
const bandRows = (file: string, cycleId: number) => {
  const raw = new Database(file, { readonly: true });
  try {
    const stored = raw.prepare('SELECT customer_id AS c, platform AS p, band AS b, hosts AS n, score_sum AS sum FROM cycle_bands WHERE cycle_id = ? ORDER BY c, p, b').all(cycleId);
    const tables = raw
      .prepare(
        `SELECT h.customer_id AS c, h.platform AS p, h.band AS b, COUNT(*) AS n, SUM(h.score) AS sum FROM hosts h JOIN host_seen s ON s.hid = h.hid
         WHERE h.connector_id = (SELECT connector_id FROM cycles WHERE id = ?) AND s.last_cycle = ? GROUP BY c, p, b ORDER BY c, p, b`,
      )
      .all(cycleId, cycleId);
    return { stored, tables };
  } finally {
    raw.close();
  }
};

describe('EdrDb history by change', () => {
  it('adds a history row only for hosts whose score or band moved; the first score of a host is its first row', () => {
    const { store, file } = open();
    const hosts = makeScoredHosts(100);
    const c1 = cycle(store, hosts);
    // 2 of 100 hosts move; the rest score as before.
    const next = hosts.map((h, i) => (i === 3 ? moved(h, h.score === 90 ? 91 : 90) : i === 7 ? moved(h, (h.score + 1) % 100) : h));
    const c2 = cycle(store, next);
    const c3 = cycle(store, next);

    const raw = new Database(file, { readonly: true });
    const perCycle = raw.prepare('SELECT cycle_id AS c, COUNT(*) AS n FROM score_changes GROUP BY cycle_id ORDER BY cycle_id').all();
    raw.close();
    expect(perCycle).toEqual([
      { c: c1, n: 100 },
      { c: c2, n: 2 },
    ]);
    expect(store.history('conn-1', hosts[3]!.host.hostId).map((h) => h.cycleId)).toEqual([c2, c1]);
    expect(store.history('conn-1', hosts[0]!.host.hostId).map((h) => h.cycleId)).toEqual([c1]);
    // Every host is still the latest of c3, and every cycle still has its full summary.
    expect(store.latestScores({ limit: 1000 })).toHaveLength(100);
    expect(new Set(store.latestScores({ limit: 1000 }).map((r) => r.cycleId))).toEqual(new Set([c3]));
    for (const c of [c1, c2, c3]) expect(store.cycleSummary(c).hosts).toBe(100);
  });

  it('a cycle written in several calls counts every host of it once in its band counts', () => {
    const { store } = open();
    const hosts = makeScoredHosts(6);
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 22)));
    for (const h of hosts) store.writeScores(id, 'conn-1', [h]);
    store.finishCycle(id, 'completed', { hosts: 6, at: new Date(Date.UTC(2026, 10, 22, 0, 1)) });
    const bands = emptyBandCounts();
    for (const h of hosts) bands[h.band] += 1;
    expect(store.cycleSummary(id)).toMatchObject({ hosts: 6, bands });
  });

  it('a commit counts its bands as the tables hold its hosts, through changes of customer, platform and band, repeats, retention and two connectors', () => {
    const { store, file } = open();
    // A fixed pseudo-random sequence (the same every run): which hosts move, and how.
    let seed = 7;
    const rand = (n: number) => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) % n;
    const pool = { 'conn-1': makeScoredHosts(60), 'conn-2': makeScoredHosts(40, { tenantId: 't2' }) };
    const old = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 8, 1)));
    store.stageScores(old, 'conn-1', makeScoredHosts(70).slice(60));
    store.commitCycle(old, new Date(Date.UTC(2026, 8, 1, 0, 1)));
    let commits = 0;
    for (let round = 0; round < 12; round++) {
      for (const connectorId of ['conn-1', 'conn-2'] as const) {
        const hosts = pool[connectorId];
        for (let k = 0; k < 8; k++) {
          const i = rand(hosts.length);
          const h = hosts[i]!;
          const how = rand(3);
          hosts[i] =
            how === 0
              ? moved(h, rand(10_001) / 100)
              : { ...h, host: { ...h.host, ...(how === 1 ? { customerId: `cust-${rand(3)}` } : { platform: rand(2) ? 'Linux' : 'Mac' }) } };
        }
        minute += 10;
        const at = new Date(Date.UTC(2026, 10, 22, 0, minute));
        const id = store.beginCycle(connectorId, 'defender', connectorId === 'conn-1' ? 't1' : 't2', at);
        // Some hosts missing, the rest in two batches with a few handed out twice (changed, then as stored, or the reverse).
        const listed = hosts.filter(() => rand(10) !== 0);
        const cut = rand(listed.length);
        store.stageScores(id, connectorId, listed.slice(0, cut));
        if (round === 5 && connectorId === 'conn-1') expect(store.prune(at, 30).hosts).toBe(10);
        store.stageScores(id, connectorId, [...listed.slice(cut), ...listed.slice(0, rand(5)).map((h) => (rand(2) ? moved(h, rand(10_001) / 100) : h))]);
        store.commitCycle(id, new Date(at.getTime() + 30_000));
        const { stored, tables } = bandRows(file, id);
        expect(stored).toEqual(tables);
        expect((tables as Array<{ n: number }>).reduce((n, r) => n + r.n, 0)).toBe(listed.length);
        commits += 1;
      }
    }
    expect(commits).toBe(24);
  });

  it('a host another connection rewrote (the command line beside the app) is read again, and the next cycle stores and counts what the vendor listed', () => {
    const { store, file } = open();
    const hosts = makeScoredHosts(20);
    cycle(store, hosts);
    // The command line polls the same tenant into the same folder: host 4 moved to another band.
    const cli = new EdrDb(file, { guest: true });
    const other = cli.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 22, 5)));
    cli.stageScores(other, 'conn-1', hosts.map((h, i) => (i === 4 ? moved(h, h.score > 50 ? 10 : 90) : h)));
    cli.commitCycle(other, new Date(Date.UTC(2026, 10, 22, 5, 1)));
    cli.close();
    // The app's next cycle lists host 4 as its own last cycle stored it: a change against the store.
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 22, 6)));
    store.stageScores(id, 'conn-1', hosts);
    expect(store.stagedChanged(id)).toBe(1);
    store.commitCycle(id, new Date(Date.UTC(2026, 10, 22, 6, 1)));
    expect(store.latestScores({ limit: 100 }).find((r) => r.hostId === hosts[4]!.host.hostId)).toMatchObject({ score: hosts[4]!.score, cycleId: id });
    const { stored, tables } = bandRows(file, id);
    expect(stored).toEqual(tables);
  });

  it('a cycle whose hosts another commit rewrote while it ran counts its bands as the tables hold them', () => {
    const { store, file } = open();
    const hosts = makeScoredHosts(20);
    cycle(store, hosts);
    // Y stages every host as stored; then X, of the same connector, moves host 2 and commits first.
    const y = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 22, 7)));
    store.stageScores(y, 'conn-1', hosts);
    const x = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 22, 7, 5)));
    store.stageScores(x, 'conn-1', [moved(hosts[2]!, hosts[2]!.score > 50 ? 10 : 90)]);
    store.commitCycle(x, new Date(Date.UTC(2026, 10, 22, 7, 6)));
    store.commitCycle(y, new Date(Date.UTC(2026, 10, 22, 7, 10)));
    const { stored, tables } = bandRows(file, y);
    expect(stored).toEqual(tables);
    expect(store.cycleSummary(y).hosts).toBe(20);
  });

  it('a writeScores whose commit fails leaves nothing of its cycle staged, so writing it again counts only what that call wrote', () => {
    const { store, file } = open();
    const [h, refused] = makeScoredHosts(2);
    // The store refuses one host's details at the commit (a trigger stands in for a failing statement).
    const raw = new Database(file);
    raw.exec(`CREATE TRIGGER refuse_details BEFORE INSERT ON host_details WHEN NEW.record_json LIKE '%refused-at-commit%' BEGIN SELECT RAISE(ABORT, 'refused at commit'); END`);
    raw.close();
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 22, 8)));
    expect(() => store.writeScores(id, 'conn-1', [h!, { ...refused!, host: { ...refused!.host, hostname: 'refused-at-commit' } }])).toThrow(/refused at commit/);
    expect(store.stagedCount()).toBe(0);
    store.writeScores(id, 'conn-1', [h!]);
    const { stored, tables } = bandRows(file, id);
    expect(stored).toEqual(tables);
    expect(store.cycleSummary(id).hosts).toBe(1);
  });

  it('a later cycle leaves the band counts of earlier cycles as they were', () => {
    const { store } = open();
    const hosts = makeScoredHosts(30);
    const c1 = cycle(store, hosts);
    const before = store.cycleSummary(c1);
    cycle(store, hosts.map((h) => moved(h, 99)));
    expect(store.cycleSummary(c1)).toEqual(before);
    expect(store.cycleSummary(c1 + 1).bands['High Risk']).toBe(30);
  });

  it('keeps the whole record when only the last-seen time moved, and shows that time from the latest cycle', () => {
    const { store, file } = open();
    const [h] = makeScoredHosts(1);
    cycle(store, [h!]);
    const raw = new Database(file, { readonly: true });
    /** Stages `host` in a new cycle and answers whether its record was staged to be written, then commits. */
    const rewrites = (host: ScoredHost) => {
      const id = store.beginCycle('conn-1', 'defender', 't1', new Date());
      store.stageScores(id, 'conn-1', [host]);
      const changed = store.stagedChanged(id);
      store.commitCycle(id, new Date());
      return changed === 1;
    };
    // The stored record leaves the last-seen time out (a column keeps it).
    expect(JSON.parse(raw.prepare('SELECT record_json FROM host_details').pluck().get() as string)).toMatchObject({ lastSeen: null, defender: { lastSeen: null } });
    expect(rewrites(seenLater(h!, '2026-11-22T09:00:00.000Z'))).toBe(false);
    const detail = store.hostDetail('conn-1', h!.host.hostId)!;
    expect(detail.host.lastSeen).toBe('2026-11-22T09:00:00.000Z');
    expect(detail.host.defender?.lastSeen).toBe('2026-11-22T09:00:00.000Z');

    // Anything else that changes rewrites it.
    expect(rewrites({ ...h!, host: { ...h!.host, osVersion: '11.0' } })).toBe(true);
    expect(store.hostDetail('conn-1', h!.host.hostId)!.host.osVersion).toBe('11.0');
    expect(rewrites({ ...h!, host: { ...h!.host, osVersion: '11.0' } })).toBe(false);
    raw.close();
  });

  it('250 hosts seen as they were, in an order other than their keys, each get their own last-seen and scoring time', () => {
    // The commit writes light rows in key order: the first 50 one by one, then 100 at a time.
    const { store, file } = open();
    const hosts = makeScoredHosts(250);
    cycle(store, hosts);
    const seen = (i: number) => new Date(Date.UTC(2026, 10, 23, 0, 0, i)).toISOString();
    const order = hosts.map((_, i) => (i * 97) % 250);
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date());
    for (let b = 0; b < 250; b += 60) store.stageScores(id, 'conn-1', order.slice(b, b + 60).map((i) => ({ ...seenLater(hosts[i]!, seen(i)), scoredAt: seen(1000 + i) })));
    expect(store.stagedChanged(id)).toBe(0);
    expect(store.stagedCount(id)).toBe(250);
    store.commitCycle(id, new Date());
    const raw = new Database(file, { readonly: true });
    const rows = raw.prepare('SELECT h.host_id AS id, s.last_cycle AS c, s.last_seen AS seen, s.scored_at AS at FROM hosts h JOIN host_seen s ON s.hid = h.hid').all() as Array<{ id: string; c: number; seen: string; at: string }>;
    raw.close();
    expect(rows).toHaveLength(250);
    const index = new Map(hosts.map((h, i) => [h.host.hostId, i]));
    for (const r of rows) expect(r).toEqual({ id: r.id, c: id, seen: seen(index.get(r.id)!), at: seen(1000 + index.get(r.id)!) });
  });

  it('a cycle committed while another one runs leaves the other’s staged rows to its own commit', () => {
    const { store } = open();
    const a = makeScoredHosts(30);
    const b = makeScoredHosts(20, { tenantId: 't2' });
    cycle(store, a.slice(0, 10), 'conn-a');
    // conn-a's cycle: 10 hosts as stored, 20 new (full rows) staged, not committed yet.
    const running = store.beginCycle('conn-a', 'defender', 't1', new Date());
    store.stageScores(running, 'conn-a', a);
    expect(store.stagedChanged(running)).toBe(20);
    // conn-b's whole cycle stages and commits meanwhile.
    const other = cycle(store, b, 'conn-b');
    expect(store.cycleSummary(other).hosts).toBe(20);
    expect(store.stagedChanged(running)).toBe(20);
    expect(store.stagedCount(running)).toBe(30);
    store.commitCycle(running, new Date());
    expect(store.cycleSummary(running).hosts).toBe(30);
    expect(store.latestScores({ limit: 100 }).filter((r) => r.connectorId === 'conn-a')).toHaveLength(30);
    expect(store.stagedCount()).toBe(0);
  });

  it('a host seen again as it was updates its own row only, also when another connector lists the same host id', () => {
    const { store } = open();
    const [h] = makeScoredHosts(1);
    cycle(store, [h!], 'conn-a');
    cycle(store, [h!], 'conn-b');
    // Seen again by conn-a only (its light row names the stored host by its key), then once more.
    cycle(store, [seenLater(h!, '2026-11-22T09:00:00.000Z')], 'conn-a');
    cycle(store, [seenLater(h!, '2026-11-22T09:10:00.000Z')], 'conn-a');
    expect(store.hostDetail('conn-a', h!.host.hostId)!.host.lastSeen).toBe('2026-11-22T09:10:00.000Z');
    expect(store.hostDetail('conn-b', h!.host.hostId)!.host.lastSeen).toBe(h!.host.lastSeen);
  });

  it('hosts seen as they were, in batches in any order, with one handed out twice and the digests forgotten between batches: each gets its last sighting', () => {
    const { store } = open();
    // 250 hosts: more than one statement's worth of light rows (100), and a remainder.
    const hosts = makeScoredHosts(251);
    const gone = hosts.pop()!;
    // In September the vendor also listed a host it has not listed since: retention deletes it.
    const old = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 8, 1)));
    store.stageScores(old, 'conn-1', [...hosts, gone]);
    store.commitCycle(old, new Date(Date.UTC(2026, 8, 1, 0, 1)));
    cycle(store, hosts);
    const at = (i: number) => new Date(Date.UTC(2026, 10, 22, 10, 0, i)).toISOString();
    const scoredAt = (batch: number) => `2026-11-22T10:5${batch}:00.000Z`;
    // The vendor's order is not the store's: reversed, in two batches scored at different times.
    const later = hosts.map((h, i) => seenLater(h, at(i))).reverse();
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 22, 11)));
    store.stageScores(id, 'conn-1', later.slice(0, 120).map((h) => ({ ...h, scoredAt: scoredAt(1) })));
    // Retention between two batches makes staging forget what it knew (the staged rows stay).
    expect(store.prune(new Date(Date.UTC(2026, 10, 22, 11)), 30).hosts).toBe(1);
    store.stageScores(id, 'conn-1', later.slice(120).map((h) => ({ ...h, scoredAt: scoredAt(2) })));
    // Host 0 handed out again with a later time: its last sighting counts, once.
    store.stageScores(id, 'conn-1', [{ ...seenLater(hosts[0]!, '2026-11-22T10:59:00.000Z'), scoredAt: scoredAt(3) }]);
    expect(store.stagedCount(id)).toBe(250);
    expect(store.stagedChanged(id)).toBe(0);
    store.commitCycle(id, new Date(Date.UTC(2026, 10, 22, 11, 1)));
    expect(store.stagedCount()).toBe(0);
    const latest = new Map(store.latestScores({ limit: 1000 }).map((r) => [r.hostId, r]));
    expect(latest.size).toBe(250);
    expect(store.hostDetail('conn-1', hosts[0]!.host.hostId)!.host.lastSeen).toBe('2026-11-22T10:59:00.000Z');
    expect(latest.get(hosts[0]!.host.hostId)!.scoredAt).toBe(scoredAt(3));
    for (let i = 1; i < 250; i++) {
      expect(store.hostDetail('conn-1', hosts[i]!.host.hostId)!.host.lastSeen).toBe(at(i));
      // hosts[249..130] came in the first batch, hosts[129..0] in the second.
      expect(latest.get(hosts[i]!.host.hostId)!.scoredAt).toBe(scoredAt(i >= 130 ? 1 : 2));
    }
    expect([...latest.values()].every((r) => r.cycleId === id)).toBe(true);
    expect(store.cycleSummary(id).hosts).toBe(250);
  });

  it('a host handed out as changed and then again as stored (or the other way round) keeps its last sighting, counted once', () => {
    const { store } = open();
    const [h, k] = makeScoredHosts(2);
    cycle(store, [h!, k!]);
    // Changed first, then as stored: in two batches (h) and in one (k).
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 23)));
    store.stageScores(id, 'conn-1', [moved(h!, 95)]);
    store.stageScores(id, 'conn-1', [seenLater(h!, '2026-11-23T00:05:00.000Z'), moved(k!, 96), seenLater(k!, '2026-11-23T00:06:00.000Z')]);
    expect(store.stagedCount(id)).toBe(2);
    expect(store.stagedChanged(id)).toBe(0);
    store.commitCycle(id, new Date(Date.UTC(2026, 10, 23, 0, 10)));
    expect(store.latestScores().map((r) => [r.hostId, r.score])).toEqual([
      [h!.host.hostId, h!.score],
      [k!.host.hostId, k!.score],
    ].sort((x, y) => (y[1] as number) - (x[1] as number)));
    expect(store.hostDetail('conn-1', h!.host.hostId)!.host.lastSeen).toBe('2026-11-23T00:05:00.000Z');
    expect(store.history('conn-1', h!.host.hostId)).toHaveLength(1);
    expect(store.cycleSummary(id).hosts).toBe(2);
    // As stored first, then changed: the change counts.
    const next = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 24)));
    store.stageScores(next, 'conn-1', [seenLater(h!, '2026-11-24T00:05:00.000Z')]);
    store.stageScores(next, 'conn-1', [{ ...moved(h!, 97), host: seenLater(h!, '2026-11-24T00:07:00.000Z').host }, k!]);
    expect(store.stagedCount(next)).toBe(2);
    expect(store.stagedChanged(next)).toBe(1);
    store.commitCycle(next, new Date(Date.UTC(2026, 10, 24, 0, 10)));
    expect(store.latestScores()[0]).toMatchObject({ hostId: h!.host.hostId, score: 97, cycleId: next });
    expect(store.hostDetail('conn-1', h!.host.hostId)!.host.lastSeen).toBe('2026-11-24T00:07:00.000Z');
    expect(store.history('conn-1', h!.host.hostId).map((r) => r.score)).toEqual([97, h!.score]);
    expect(store.cycleSummary(next).hosts).toBe(2);
  });

  it('a light row of a host retention deleted never lands on the host another connector’s commit gives its key', () => {
    const { store } = open();
    const [a, x] = makeScoredHosts(2);
    const [z] = makeScoredHosts(1, { tenantId: 't2' });
    // conn-a: x listed only in September, so it has the largest key and retention deletes it.
    const old = store.beginCycle('conn-a', 'defender', 't1', new Date(Date.UTC(2026, 8, 1)));
    store.stageScores(old, 'conn-a', [a!, x!]);
    store.commitCycle(old, new Date(Date.UTC(2026, 8, 1, 0, 1)));
    cycle(store, [a!], 'conn-a');
    const running = store.beginCycle('conn-a', 'defender', 't1', new Date(Date.UTC(2026, 10, 22, 14)));
    store.stageScores(running, 'conn-a', [a!, seenLater(x!, '2026-11-22T13:00:00.000Z')]);
    expect(store.prune(new Date(Date.UTC(2026, 10, 22, 14)), 30).hosts).toBe(1);
    // conn-b's commit adds a host, which may be given x's key.
    const b = cycle(store, [seenLater(z!, '2026-11-22T13:30:00.000Z')], 'conn-b');
    store.commitCycle(running, new Date(Date.UTC(2026, 10, 22, 14, 1)));
    expect(store.latestScores({ connectorId: 'conn-b' })).toMatchObject([{ hostId: z!.host.hostId, cycleId: b }]);
    expect(store.hostDetail('conn-b', z!.host.hostId)!.host.lastSeen).toBe('2026-11-22T13:30:00.000Z');
    expect(store.cycleSummary(running).hosts).toBe(1);
    expect(store.latestScores({ connectorId: 'conn-a' }).map((r) => r.hostId)).toEqual([a!.host.hostId]);
  });

  it('a batch that fails to stage leaves nothing of it staged, its hosts seen as they were included', () => {
    const { store } = open();
    const hosts = makeScoredHosts(3);
    cycle(store, hosts);
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 22, 13)));
    // Host 0 seen as it was, then a host the store refuses (no hostname): the batch's transaction rolls back.
    const refused = { ...hosts[1]!, host: { ...hosts[1]!.host, hostId: 'refused-host', hostname: null as unknown as string } };
    expect(() => store.stageScores(id, 'conn-1', [seenLater(hosts[0]!, '2026-11-22T12:30:00.000Z'), refused])).toThrow(/NOT NULL/);
    expect(store.stagedCount(id)).toBe(0);
    store.stageScores(id, 'conn-1', [seenLater(hosts[2]!, '2026-11-22T12:40:00.000Z')]);
    expect(store.stagedCount(id)).toBe(1);
    store.commitCycle(id, new Date(Date.UTC(2026, 10, 22, 13, 1)));
    expect(store.hostDetail('conn-1', hosts[0]!.host.hostId)!.host.lastSeen).toBe(hosts[0]!.host.lastSeen);
    expect(store.hostDetail('conn-1', hosts[2]!.host.hostId)!.host.lastSeen).toBe('2026-11-22T12:40:00.000Z');
    expect(store.latestScores({ limit: 10 }).map((r) => r.hostId)).toEqual([hosts[2]!.host.hostId]);
  });

  it('a host retention deletes after it was staged as seen is missing from the cycle, and its light row never lands on a host the commit adds', () => {
    const { store } = open();
    // m00000000, m00000001 (stored last: the largest key), and m00000002 new later.
    const [a, x, y] = makeScoredHosts(3);
    const old = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 8, 1)));
    store.stageScores(old, 'conn-1', [a!, x!]);
    store.commitCycle(old, new Date(Date.UTC(2026, 8, 1, 0, 1)));
    cycle(store, [a!]);
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 22, 14)));
    store.stageScores(id, 'conn-1', [seenLater(x!, '2026-11-22T13:00:00.000Z')]);
    expect(store.stagedChanged(id)).toBe(0);
    // Retention deletes x (no cycle within 30 days listed it); y, new, may be given x's key at the commit.
    expect(store.prune(new Date(Date.UTC(2026, 10, 22, 14)), 30).hosts).toBe(1);
    store.stageScores(id, 'conn-1', [a!, seenLater(y!, '2026-11-22T13:30:00.000Z')]);
    store.commitCycle(id, new Date(Date.UTC(2026, 10, 22, 14, 1)));
    expect(store.hostDetail('conn-1', y!.host.hostId)!.host.lastSeen).toBe('2026-11-22T13:30:00.000Z');
    expect(store.hostDetail('conn-1', x!.host.hostId)).toBeUndefined();
    expect(store.latestScores({ limit: 10 }).map((r) => r.hostId).sort()).toEqual([a!.host.hostId, y!.host.hostId]);
  });

  it('a cycle discarded before its commit leaves the hosts as the last commit stored them', () => {
    const { store } = open();
    const hosts = makeScoredHosts(10);
    const c1 = cycle(store, hosts);
    const id = store.beginCycle('conn-1', 'defender', 't1', new Date(Date.UTC(2026, 10, 22, 12)));
    store.stageScores(id, 'conn-1', hosts.map((h) => seenLater(h, '2026-11-22T12:00:00.000Z')));
    expect(store.stagedCount(id)).toBe(10);
    store.finishCycle(id, 'failed', { hosts: 0, error: 'the vendor stopped answering', at: new Date(Date.UTC(2026, 10, 22, 12, 1)) });
    expect(store.stagedCount()).toBe(0);
    expect(store.hostDetail('conn-1', hosts[0]!.host.hostId)!.host.lastSeen).toBe(hosts[0]!.host.lastSeen);
    expect(store.latestScores({ limit: 100 }).every((r) => r.cycleId === c1)).toBe(true);
  });

  it('a host the vendor no longer lists leaves the latest view, and keeps its history', () => {
    const { store } = open();
    const hosts = makeScoredHosts(5);
    cycle(store, hosts);
    cycle(store, hosts.slice(1));
    expect(store.latestScores().map((r) => r.hostId)).not.toContain(hosts[0]!.host.hostId);
    expect(store.latestScores()).toHaveLength(4);
    expect(store.history('conn-1', hosts[0]!.host.hostId)).toHaveLength(1);
  });

  it('opens a version-3 store with every cycle of every host, keeping only the rows that changed and each cycle’s counts', () => {
    const { file, raw } = rawStoreAt(3);
    const record = (id: string) => JSON.stringify({ vendor: 'defender', tenantId: 't1', hostId: id, hostname: `${id}.corp`, customerId: 'cust-a', platform: 'Windows', osVersion: null, lastSeen: null, defender: { riskScore: 'High', exposureLevel: 'Low', healthStatus: 'Active', avStatus: 'Updated', onboardingStatus: 'Onboarded', lastSeen: null, criticalCveCount: 2, cveCount: 4, maxCvss: 9.8 } });
    const ins = raw.prepare('INSERT INTO scores (cycle_id, connector_id, host_id, score, band, contributions_json, scored_at) VALUES (?, ?, ?, ?, ?, ?, ?)');
    for (const c of [1, 2, 3]) {
      raw.prepare("INSERT INTO cycles (connector_id, vendor, tenant_id, started_at, finished_at, status, hosts) VALUES ('conn-1', 'defender', 't1', ?, ?, 'completed', 2)").run(`2026-11-0${c}T00:00:00Z`, `2026-11-0${c}T00:01:00Z`);
      ins.run(c, 'conn-1', 'h1', 42, 'Moderate Risk', '[]', `2026-11-0${c}T00:01:00Z`);
      ins.run(c, 'conn-1', 'h2', c === 3 ? 85 : 30, c === 3 ? 'High Risk' : 'Low Risk', '[]', `2026-11-0${c}T00:01:00Z`);
    }
    for (const id of ['h1', 'h2']) raw.prepare("INSERT INTO hosts (connector_id, host_id, vendor, hostname, customer_id, platform, record_json, last_cycle) VALUES ('conn-1', ?, 'defender', ?, 'cust-a', 'Windows', ?, 3)").run(id, `${id}.corp`, record(id));
    raw.close();

    const store = new EdrDb(file);
    expect(store.history('conn-1', 'h1').map((r) => r.cycleId)).toEqual([1]);
    expect(store.history('conn-1', 'h2').map((r) => [r.cycleId, r.band])).toEqual([
      [3, 'High Risk'],
      [1, 'Low Risk'],
    ]);
    expect(store.cycleSummary(2)).toMatchObject({ hosts: 2, bands: { 'Moderate Risk': 1, 'Low Risk': 1 } });
    expect(store.cycleSummary(3)).toMatchObject({ hosts: 2, bands: { 'Moderate Risk': 1, 'High Risk': 1 } });
    expect(store.latestScores().map((r) => [r.hostId, r.score])).toEqual([
      ['h2', 85],
      ['h1', 42],
    ]);
    expect(store.hostDetail('conn-1', 'h1')?.host.defender?.riskScore).toBe('High');
    // The next cycle compares with the migrated scores: h1 unchanged adds no row.
    const next = store.beginCycle('conn-1', 'defender', 't1', new Date('2026-11-04T00:00:00Z'));
    store.stageScores(next, 'conn-1', [{ host: JSON.parse(record('h1')), score: 42, band: 'Moderate Risk', contributions: [], scoredAt: '2026-11-04T00:01:00Z' }]);
    store.commitCycle(next, new Date('2026-11-04T00:01:00Z'));
    expect(store.history('conn-1', 'h1').map((r) => r.cycleId)).toEqual([1]);
    store.close();
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(EDR_SCHEMA_VERSION);
    check.close();
  });

  it('opens a version-4 store: what moves every cycle leaves the hosts table for host_seen, and the views read it from there', () => {
    const { file, raw } = rawStoreAt(4);
    const host = makeScoredHosts(1)[0]!;
    raw.prepare("INSERT INTO cycles (connector_id, vendor, tenant_id, started_at, finished_at, status, hosts) VALUES ('conn-1', 'defender', 't1', '2026-11-01T00:00:00Z', '2026-11-01T00:01:00Z', 'completed', 1)").run();
    raw
      .prepare(
        `INSERT INTO hosts (hid, connector_id, host_id, vendor, hostname, customer_id, platform, last_cycle, last_seen, score, band, scored_at, digest)
         VALUES (7, 'conn-1', ?, 'defender', 'pc-7', 'cust-a', 'Windows', 1, '2026-10-31T23:58:00Z', 42, 'Moderate Risk', '2026-11-01T00:00:30Z', 'old')`,
      )
      .run(host.host.hostId);
    raw.prepare("INSERT INTO host_details (hid, record_json, contributions_json) VALUES (7, ?, '[]')").run(JSON.stringify({ ...host.host, lastSeen: null, defender: { ...host.host.defender!, lastSeen: null } }));
    raw.close();

    const store = new EdrDb(file);
    expect(store.latestScores()).toMatchObject([{ hostId: host.host.hostId, cycleId: 1, scoredAt: '2026-11-01T00:00:30Z', score: 42 }]);
    expect(store.hostDetail('conn-1', host.host.hostId)?.host.lastSeen).toBe('2026-10-31T23:58:00Z');
    expect(store.views.storedRecords('conn-1', 1, '', 10).map((h) => h.defender?.lastSeen)).toEqual(['2026-10-31T23:58:00Z']);
    expect(store.views.host('conn-1', host.host.hostId)).toMatchObject({ cycleId: 1, lastSeen: '2026-10-31T23:58:00Z', scoredAt: '2026-11-01T00:00:30Z' });
    // The next cycle lists the host again: its last-seen time moves in host_seen.
    cycle(store, [seenLater(host, '2026-11-22T00:09:00.000Z')]);
    expect(store.hostDetail('conn-1', host.host.hostId)?.host.lastSeen).toBe('2026-11-22T00:09:00.000Z');
    store.close();
    const check = new Database(file, { readonly: true });
    expect(check.pragma('user_version', { simple: true })).toBe(EDR_SCHEMA_VERSION);
    const columns = (check.prepare('PRAGMA table_info(hosts)').all() as Array<{ name: string }>).map((c) => c.name);
    expect(columns.filter((c) => ['last_cycle', 'last_seen', 'scored_at'].includes(c))).toEqual([]);
    expect(check.prepare('SELECT hid, last_seen FROM host_seen').all()).toEqual([{ hid: 7, last_seen: '2026-11-22T00:09:00.000Z' }]);
    check.close();
  });

  it('retention drops cycles and history older than the period, keeping the newest cycle, its hosts and each host’s score at the cut', () => {
    const { store, file } = open();
    const at = (day: number) => new Date(Date.UTC(2026, 7, 1 + day));
    const run = (day: number, hosts: ScoredHost[], connectorId = 'conn-1') => {
      const id = store.beginCycle(connectorId, 'defender', 't1', at(day));
      store.stageScores(id, connectorId, hosts.map((h) => ({ ...h, scoredAt: at(day).toISOString() })));
      store.commitCycle(id, at(day));
      return id;
    };
    const hosts = makeScoredHosts(4);
    const old1 = run(0, hosts);
    const old2 = run(10, hosts.map((h, i) => (i === 0 ? moved(h, 95) : h)));
    // Host 3 leaves the tenant after day 10.
    const recent = run(100, hosts.slice(0, 3).map((h, i) => (i === 1 ? moved(h, 77) : h)));
    // Another connector whose only cycle is old: it stays (its newest).
    const lone = run(5, makeScoredHosts(2), 'conn-2');

    const r = store.prune(at(101), 90);
    // Cycles day 0 and 10; host 3 (last seen day 10) with its row; host 0's day-0 row (its day-10 row is its score at the cut).
    expect(r).toEqual({ cycles: 2, hosts: 1, changes: 1 });
    expect(store.cycle(old1)).toBeUndefined();
    expect(store.cycle(old2)).toBeUndefined();
    expect(store.cycle(recent)?.status).toBe('completed');
    expect(store.cycle(lone)?.status).toBe('completed');
    expect(store.cycleSummary(old1).hosts).toBe(0);
    // Host 0 keeps its score at the cut (day 10's 95) and its return to its first score on day 100;
    // host 1 its first score (its score at the cut) and its recent move; host 3 is gone.
    expect(store.history('conn-1', hosts[0]!.host.hostId).map((h) => h.cycleId)).toEqual([recent, old2]);
    expect(store.history('conn-1', hosts[1]!.host.hostId).map((h) => h.cycleId)).toEqual([recent, old1]);
    expect(store.history('conn-1', hosts[3]!.host.hostId)).toEqual([]);
    expect(store.hostDetail('conn-1', hosts[3]!.host.hostId)).toBeUndefined();
    expect(store.latestScores({ limit: 100 }).map((h) => h.hostId).sort()).toEqual([...hosts.slice(0, 3), ...makeScoredHosts(2)].map((h) => h.host.hostId).sort());
    // Nothing left to prune.
    expect(store.prune(at(101), 90)).toEqual({ cycles: 0, hosts: 0, changes: 0 });
    const raw = new Database(file, { readonly: true });
    expect(raw.prepare('SELECT COUNT(*) FROM host_details').pluck().get()).toBe(5);
    expect(raw.prepare('SELECT COUNT(*) FROM host_seen').pluck().get()).toBe(5);
    raw.close();
  });
});
