import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { EDR_MIGRATIONS, EDR_SCHEMA_VERSION, EdrDb, INTERRUPTED_CYCLE_ERROR } from '../../../electron/edr/store/edr-db';
import { buildMessages } from '../../../electron/edr/publisher';
import { SqliteEdrStore } from '../../../electron/edr/store/sqlite-edr-store';
import { makeScoredHosts } from '../../support/edr-fixtures';

const dirs: string[] = [];
const open = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-edr-'));
  dirs.push(dir);
  return { store: new EdrDb(path.join(dir, 'edr.db')), file: path.join(dir, 'edr.db') };
};
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

describe('EdrDb', () => {
  it('keeps every cycle of scores as history and the latest per host', () => {
    const { store } = open();
    const c1 = store.beginCycle('conn-1', 'defender', 't1', new Date('2026-11-22T01:00:00Z'));
    store.writeScores(c1, 'conn-1', makeScoredHosts(50, { cycleSalt: 0 }));
    store.finishCycle(c1, 'completed', { hosts: 50, at: new Date('2026-11-22T01:01:00Z') });
    const c2 = store.beginCycle('conn-1', 'defender', 't1', new Date('2026-11-22T01:10:00Z'));
    store.writeScores(c2, 'conn-1', makeScoredHosts(50, { cycleSalt: 1 }));
    store.finishCycle(c2, 'completed', { hosts: 50, at: new Date('2026-11-22T01:11:00Z') });

    const latest = store.latestScores({ connectorId: 'conn-1', limit: 100 });
    expect(latest).toHaveLength(50);
    expect(new Set(latest.map((r) => r.cycleId))).toEqual(new Set([c2]));
    const hist = store.history('conn-1', 'm00000001');
    expect(hist.map((h) => h.cycleId)).toEqual([c2, c1]);
    expect(hist[0]!.score).not.toBe(hist[1]!.score);
    expect(store.lastCycle('conn-1')).toMatchObject({ id: c2, status: 'completed', hosts: 50 });
  });

  it('filters by customer, platform and band, highest risk first', () => {
    const { store } = open();
    const c = store.beginCycle('conn-1', 'defender', 't1', new Date());
    store.writeScores(c, 'conn-1', makeScoredHosts(40));
    // Until its cycle completes, what a cycle wrote is not the latest.
    expect(store.latestScores()).toEqual([]);
    store.finishCycle(c, 'completed', { hosts: 40, at: new Date() });
    const macs = store.latestScores({ platform: 'Mac' });
    expect(macs.length).toBe(10);
    expect(macs.every((r) => r.platform === 'Mac')).toBe(true);
    const custA = store.latestScores({ customerId: 'cust-a' });
    expect(custA.every((r) => r.customerId === 'cust-a')).toBe(true);
    const high = store.latestScores({ band: 'High Risk' });
    expect(high.every((r) => r.band === 'High Risk' && r.score > 80)).toBe(true);
    const all = store.latestScores();
    expect(all.map((r) => r.score)).toEqual([...all.map((r) => r.score)].sort((a, b) => b - a));
  });

  it('returns a host with its contributions, and survives a reopen (offline)', () => {
    const { store, file } = open();
    const c = store.beginCycle('conn-1', 'defender', 't1', new Date());
    store.writeScores(c, 'conn-1', makeScoredHosts(3));
    store.finishCycle(c, 'completed', { hosts: 3, at: new Date() });
    store.close();
    const again = new EdrDb(file);
    const d = again.hostDetail('conn-1', 'm00000002');
    expect(d?.host.hostname).toBe('host-2.corp.example');
    expect(d?.contributions[0]?.indicator).toBe('riskScore:Low');
    again.close();
  });

  it('a published cycle carries the predefined profile results of each Falcon host, and none for Defender hosts', async () => {
    const { store } = open();
    const c = store.beginCycle('conn-1', 'falcon', 'cid-1', new Date());
    const hosts = makeScoredHosts(3).map((h, i) => (i === 0 ? h : { ...h, profiles: { 'eip-profile-endpoint_security-crowdstrike': i === 1, 'eip-profile-endpoint_security-software-crowdstrike': true } }));
    store.writeScores(c, 'conn-1', hosts);
    store.finishCycle(c, 'completed', { hosts: 3, at: new Date() });
    const published = (await buildMessages(new SqliteEdrStore(store), store.cycle(c)!))[0]!.hosts;
    expect(published.map((h) => h.profiles)).toEqual([
      undefined,
      { 'eip-profile-endpoint_security-crowdstrike': true, 'eip-profile-endpoint_security-software-crowdstrike': true },
      { 'eip-profile-endpoint_security-crowdstrike': false, 'eip-profile-endpoint_security-software-crowdstrike': true },
    ]);
    expect('profiles' in published[0]!).toBe(false);
  });

  it('publishes a cycle once: a second mark is refused, unpublished cycles are listed', () => {
    const { store } = open();
    const c = store.beginCycle('conn-1', 'defender', 't1', new Date());
    store.writeScores(c, 'conn-1', makeScoredHosts(10));
    store.finishCycle(c, 'completed', { hosts: 10, at: new Date() });
    expect(store.unpublishedCycles().map((x) => x.id)).toEqual([c]);
    const summary = store.cycleSummary(c);
    expect(summary.hosts).toBe(10);
    expect(Object.values(summary.bands).reduce((a, b) => a + b, 0)).toBe(10);
    expect(store.markPublished(c, new Date())).toBe(true);
    expect(store.markPublished(c, new Date())).toBe(false);
    expect(store.unpublishedCycles()).toEqual([]);
  });

  it('keeps why a cycle is not published until it is, and offers only the newest cycle of each connector', () => {
    const { store } = open();
    const finish = (connector: string) => {
      const c = store.beginCycle(connector, 'defender', 't1', new Date());
      store.writeScores(c, connector, makeScoredHosts(3));
      store.finishCycle(c, 'completed', { hosts: 3, at: new Date() });
      return c;
    };
    const old = finish('conn-1');
    store.recordPublishAttempt(old, 'No publication target.');
    expect(store.cycle(old)).toMatchObject({ publishedAt: null, publishAttempts: 1, publishError: 'No publication target.' });
    const newer = finish('conn-1');
    const other = finish('conn-2');
    // The older cycle of conn-1 is superseded by the newer one: its scores are not worth sending.
    expect(store.unpublishedCycles().map((x) => x.id)).toEqual([newer, other]);
    expect(store.markPublished(newer, new Date())).toBe(true);
    expect(store.cycle(newer)).toMatchObject({ publishError: null, publishAttempts: 1 });
    expect(store.unpublishedCycles().map((x) => x.id)).toEqual([other]);
  });

  describe('opens a store of each earlier version, keeping its data', () => {
    // What earlier builds left: the first steps of the schema, with user_version counting them
    // (versioned), or the same tables with user_version 0 (written before the list existed).
    const earlier = [
      { steps: 1, versioned: false, what: 'the first schema, unversioned (no publish_error, no staging)' },
      { steps: 2, versioned: false, what: 'publish_error added, unversioned' },
      { steps: 3, versioned: false, what: 'staging added, unversioned' },
      { steps: 1, versioned: true, what: 'version 1' },
      { steps: 2, versioned: true, what: 'version 2' },
    ];
    for (const e of earlier) {
      it(e.what, () => {
        const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-edr-old-'));
        dirs.push(dir);
        const file = path.join(dir, 'edr.db');
        const raw = new Database(file);
        for (const step of EDR_MIGRATIONS.slice(0, e.steps)) raw.exec(step);
        if (e.versioned) raw.pragma(`user_version = ${e.steps}`);
        raw.exec(`INSERT INTO cycles (connector_id, vendor, tenant_id, started_at, finished_at, status, hosts) VALUES ('conn-1', 'defender', 't1', '2026-11-01T00:00:00Z', '2026-11-01T00:01:00Z', 'completed', 1);
          INSERT INTO hosts (connector_id, host_id, vendor, hostname, customer_id, platform, record_json, last_cycle) VALUES ('conn-1', 'h1', 'defender', 'pc-1', 'cust-a', 'Windows', '{}', 1);
          INSERT INTO scores (cycle_id, connector_id, host_id, score, band, contributions_json, scored_at) VALUES (1, 'conn-1', 'h1', 42, 'Moderate Risk', '[]', '2026-11-01T00:01:00Z');`);
        raw.close();

        const store = new EdrDb(file);
        expect(store.cycle(1)).toMatchObject({ status: 'completed', hosts: 1, publishError: null });
        expect(store.latestScores({ connectorId: 'conn-1' }).map((r) => [r.hostId, r.score, r.band])).toEqual([['h1', 42, 'Moderate Risk']]);
        // Every later step is there: publication errors are kept, a new cycle stages and commits.
        store.recordPublishAttempt(1, 'broker down');
        expect(store.cycle(1)?.publishError).toBe('broker down');
        const next = store.beginCycle('conn-1', 'defender', 't1', new Date('2026-11-02T00:00:00Z'));
        expect(store.stageScores(next, 'conn-1', makeScoredHosts(3, { tenantId: 't1' }))).toBe(3);
        expect(store.commitCycle(next, new Date('2026-11-02T00:01:00Z'))).toBe(3);
        store.close();
        const check = new Database(file, { readonly: true });
        expect(check.pragma('user_version', { simple: true })).toBe(EDR_SCHEMA_VERSION);
        check.close();
      });
    }
  });

  it('marks a cycle left running by a stopped process as interrupted on the next open, and leaves finished cycles alone', () => {
    const { store, file } = open();
    const done = store.beginCycle('conn-1', 'defender', 't1', new Date('2026-11-22T01:00:00Z'));
    store.writeScores(done, 'conn-1', makeScoredHosts(5));
    store.finishCycle(done, 'completed', { hosts: 5, at: new Date('2026-11-22T01:01:00Z') });
    // Scores stored, the finish never written (the process died between the two).
    const stored = store.beginCycle('conn-1', 'defender', 't1', new Date('2026-11-22T01:10:00Z'));
    store.writeScores(stored, 'conn-1', makeScoredHosts(4, { cycleSalt: 1 }));
    // Died before storing anything.
    const empty = store.beginCycle('conn-2', 'falcon', 'cid', new Date('2026-11-22T01:20:00Z'));
    expect(store.interruptedAtOpen).toBe(0);
    store.close();

    const before = new Date().toISOString();
    const again = new EdrDb(file);
    expect(again.interruptedAtOpen).toBe(2);
    expect(again.cycle(done)).toMatchObject({ status: 'completed', hosts: 5, error: null, finishedAt: '2026-11-22T01:01:00.000Z' });
    expect(again.cycle(stored)).toMatchObject({ status: 'interrupted', hosts: 4, error: INTERRUPTED_CYCLE_ERROR });
    expect(again.lastCycle('conn-2')).toMatchObject({ id: empty, status: 'interrupted', hosts: 0, error: 'The app stopped during this cycle.' });
    expect(again.cycle(empty)!.finishedAt! >= before).toBe(true);
    // An interrupted cycle is never published: the completed one stays the one to publish.
    expect(again.unpublishedCycles().map((c) => c.id)).toEqual([done]);
    again.close();

    const third = new EdrDb(file);
    expect(third.interruptedAtOpen).toBe(0);
    expect(third.cycle(empty)?.status).toBe('interrupted');
    third.close();
  });

  it('opened as a guest (the CLI beside a running app), leaves the owner’s running cycle alone; the owner completes it', () => {
    const { store: owner, file } = open();
    const running = owner.beginCycle('conn-1', 'defender', 't1', new Date('2026-11-22T01:00:00Z'));
    owner.stageScores(running, 'conn-1', makeScoredHosts(3));
    const guest = new EdrDb(file, { guest: true });
    expect(guest.interruptedAtOpen).toBe(0);
    expect(guest.cycle(running)?.status).toBe('running');
    // The guest writes a cycle of its own beside it.
    const own = guest.beginCycle('cli-defender-t2', 'defender', 't2', new Date('2026-11-22T01:00:30Z'));
    guest.writeScores(own, 'cli-defender-t2', makeScoredHosts(2, { tenantId: 't2' }));
    guest.finishCycle(own, 'completed', { hosts: 2, at: new Date('2026-11-22T01:00:40Z') });
    guest.close();
    expect(owner.commitCycle(running, new Date('2026-11-22T01:01:00Z'))).toBe(3);
    expect(owner.cycle(running)).toMatchObject({ status: 'completed', hosts: 3, error: null });
    expect(owner.views.latestCycles().map((c) => c.connectorId).sort()).toEqual(['cli-defender-t2', 'conn-1']);
    owner.close();
  });

  it('does not publish cycles that failed or were cancelled', () => {
    const { store } = open();
    const a = store.beginCycle('conn-1', 'falcon', 't1', new Date());
    store.finishCycle(a, 'failed', { hosts: 0, error: 'token refused', at: new Date() });
    const b = store.beginCycle('conn-1', 'falcon', 't1', new Date());
    store.finishCycle(b, 'cancelled', { hosts: 0, at: new Date() });
    expect(store.unpublishedCycles()).toEqual([]);
    expect(store.cycle(a)).toMatchObject({ status: 'failed', error: 'token refused' });
  });

  describe('staged cycles (the app poller)', () => {
    it('keeps staged rows out of every view until commitCycle moves them in one go; a host staged twice keeps its last score', () => {
      const { store } = open();
      const c1 = store.beginCycle('conn-1', 'defender', 't1', new Date('2026-11-22T01:00:00Z'));
      store.writeScores(c1, 'conn-1', makeScoredHosts(6, { cycleSalt: 0 }));
      store.finishCycle(c1, 'completed', { hosts: 6, at: new Date('2026-11-22T01:01:00Z') });
      const c2 = store.beginCycle('conn-1', 'defender', 't1', new Date('2026-11-22T01:10:00Z'));
      const next = makeScoredHosts(10, { cycleSalt: 1 });
      store.stageScores(c2, 'conn-1', next.slice(0, 5));
      store.stageScores(c2, 'conn-1', [...next.slice(5), { ...next[0]!, score: 99, band: 'High Risk' }]);
      expect(store.stagedCount(c2)).toBe(10);
      expect(new Set(store.latestScores({ limit: 100 }).map((r) => r.cycleId))).toEqual(new Set([c1]));
      expect(store.cycleSummary(c2).hosts).toBe(0);
      expect(store.hostDetail('conn-1', next[9]!.host.hostId)).toBeUndefined();

      expect(store.commitCycle(c2, new Date('2026-11-22T01:11:00Z'))).toBe(10);
      expect(store.cycle(c2)).toMatchObject({ status: 'completed', hosts: 10, finishedAt: '2026-11-22T01:11:00.000Z', error: null });
      expect(store.stagedCount()).toBe(0);
      const latest = store.latestScores({ limit: 100 });
      expect(latest).toHaveLength(10);
      expect(new Set(latest.map((r) => r.cycleId))).toEqual(new Set([c2]));
      expect(latest.find((r) => r.hostId === next[0]!.host.hostId)).toMatchObject({ score: 99, band: 'High Risk' });
      expect(store.hostDetail('conn-1', next[9]!.host.hostId)?.host).toEqual(next[9]!.host);
      expect(store.history('conn-1', next[1]!.host.hostId).map((h) => h.cycleId)).toEqual([c2, c1]);
      expect(store.unpublishedCycles().map((c) => c.id)).toEqual([c2]);
    });

    it('a failed or cancelled cycle loses its staged rows; another running cycle keeps its own', () => {
      const { store } = open();
      const a = store.beginCycle('conn-1', 'defender', 't1', new Date());
      const b = store.beginCycle('conn-2', 'falcon', 'cid', new Date());
      const c = store.beginCycle('conn-3', 'falcon', 'cid-3', new Date());
      store.stageScores(a, 'conn-1', makeScoredHosts(3));
      store.stageScores(b, 'conn-2', makeScoredHosts(4));
      store.stageScores(c, 'conn-3', makeScoredHosts(5));
      store.finishCycle(a, 'failed', { hosts: 0, error: 'HTTP 500', at: new Date() });
      store.finishCycle(b, 'cancelled', { hosts: 0, at: new Date() });
      expect([store.stagedCount(a), store.stagedCount(b), store.stagedCount(c)]).toEqual([0, 0, 5]);
      expect(store.latestScores()).toEqual([]);
    });

    it('the staged rows of a cycle the app stopped during go with it (never in the file); the next open marks it interrupted and nothing of it is visible', () => {
      const { store, file } = open();
      const done = store.beginCycle('conn-1', 'defender', 't1', new Date());
      store.stageScores(done, 'conn-1', makeScoredHosts(4));
      store.commitCycle(done, new Date());
      const stopped = store.beginCycle('conn-1', 'defender', 't1', new Date());
      store.stageScores(stopped, 'conn-1', makeScoredHosts(7, { cycleSalt: 1 }));
      expect(store.stagedCount(stopped)).toBe(7);
      // Another connection to the file (as after a crash) sees no staging table at all: it is TEMP.
      const raw = new Database(file, { readonly: true });
      expect(raw.prepare("SELECT name FROM sqlite_master WHERE name = 'staged_scores'").all()).toEqual([]);
      raw.close();
      store.close();

      const again = new EdrDb(file);
      expect(again.interruptedAtOpen).toBe(1);
      expect(again.stagedCount()).toBe(0);
      expect(again.cycle(stopped)).toMatchObject({ status: 'interrupted', hosts: 0 });
      expect(new Set(again.latestScores().map((r) => r.cycleId))).toEqual(new Set([done]));
      expect(again.latestScores()).toHaveLength(4);
      again.close();
    });
  });
});
