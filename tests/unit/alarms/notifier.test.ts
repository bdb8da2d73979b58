/**
 * Notifications of new alarm changes (C-31) over a real alarms.db: one change by its device and
 * text, what comes within the pause summed into one that names the newest, muted severities and
 * old history silent, nothing for what was stored before the source started.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActiveSeverity, AlarmItem, AlarmNotification, AlarmSeverity } from '../../../shared/model/alarms';
import { AlarmNotifier } from '../../../electron/alarms/notifier';
import type { AlarmStore } from '../../../electron/alarms/store/alarm-store';
import { openAlarmStore } from '../../support/alarm-fixtures';

const T0 = Date.parse('2026-05-01T12:00:00Z');
let dir: string;
let store: AlarmStore;
let severities: ActiveSeverity[];
let delivered: AlarmNotification[];
let notifier: AlarmNotifier;

beforeEach(() => {
  vi.useFakeTimers({ now: T0 });
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-notify-'));
  store = openAlarmStore(path.join(dir, 'alarms.db'));
  severities = ['critical'];
  delivered = [];
  notifier = new AlarmNotifier({ store, severities: () => severities, deliver: (n) => delivered.push(n), nameOf: (id) => (id === 'p1' ? 'Lab node' : undefined), everyMs: 5_000 });
});
afterEach(async () => {
  notifier.close();
  await store.close();
  rmSync(dir, { recursive: true, force: true });
  vi.useRealTimers();
});

/** One status change of an alarm of `device` on `object`, at `atMs` on the node's clock. */
async function change(source: string, device: string, object: string, severity: AlarmSeverity, text: string, atMs = Date.now()): Promise<void> {
  const item: AlarmItem = {
    head: { device: `uuid-${device}`, deviceName: device, org: 'Acme', object, type: 'interface-down', specificProblem: 'link', severity, cleared: severity === 'cleared', text, lastChangeMs: atMs },
    changes: [{ eventMs: atMs, severity, text }],
    handlings: [],
    messageId: null,
  };
  await store.ingest(source, [item], { storedMs: Date.now() });
}

describe('alarm notifications', async () => {
  it('announce a new critical change by its device and text, with the connection’s name', async () => {
    notifier.begin('p1', await notifier.head());
    await change('p1', 'branch-7', 'vni-0/1', 'critical', 'Interface vni-0/1 is down');
    await notifier.check('p1');
    expect(delivered).toEqual([
      { profileId: 'p1', severity: 'critical', count: 1, alarmId: expect.any(Number), title: 'Critical alarm on branch-7', body: 'Interface vni-0/1 is down (Acme · vni-0/1) — Lab node' },
    ]);
    // Looked at once: checking again announces nothing more.
    await notifier.check('p1');
    expect(delivered).toHaveLength(1);
  });

  it('sum what comes within the pause into one notification naming the newest of the most severe', async () => {
    severities = ['critical', 'major'];
    notifier.begin('p1', await notifier.head());
    await change('p1', 'branch-1', 'vni-0/0', 'critical', 'first');
    await notifier.check('p1');
    expect(delivered).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    await change('p1', 'branch-2', 'vni-0/0', 'major', 'a major one');
    await notifier.check('p1');
    await change('p1', 'branch-3', 'vni-0/2', 'critical', 'the newest critical');
    await change('p1', 'branch-4', 'vni-0/3', 'major', 'a later major');
    await notifier.check('p1');
    expect(delivered).toHaveLength(1);
    vi.advanceTimersByTime(3_999);
    expect(delivered).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(delivered).toHaveLength(2);
    expect(delivered[1]).toMatchObject({ severity: 'critical', count: 3, title: '3 new alarms (1 critical, 2 major)', body: 'Newest: branch-3: the newest critical (Acme · vni-0/2) — Lab node' });
  });

  it('stay silent for muted severities, cleared changes, old history a backfill brought, another connection and what was stored before', async () => {
    await change('p1', 'before', 'vni-0/0', 'critical', 'stored before the source started');
    notifier.begin('p1', await notifier.head());
    await notifier.check('p1');
    await change('p1', 'branch-1', 'vni-0/0', 'major', 'major is not chosen');
    await change('p1', 'branch-1', 'vni-0/1', 'cleared', 'cleared');
    await change('p1', 'branch-1', 'vni-0/2', 'critical', 'eleven minutes old', Date.now() - 11 * 60_000);
    await change('p2', 'other', 'vni-0/0', 'critical', 'another connection (not begun)');
    await notifier.check('p1');
    await notifier.check('p2');
    severities = [];
    await change('p1', 'branch-2', 'vni-0/0', 'critical', 'critical, muted');
    await notifier.check('p1');
    vi.advanceTimersByTime(60_000);
    expect(delivered).toEqual([]);
  });

  it('drop what waits when the source stops', async () => {
    notifier.begin('p1', await notifier.head());
    await change('p1', 'a', 'vni-0/0', 'critical', 'one');
    await notifier.check('p1');
    await change('p1', 'b', 'vni-0/0', 'critical', 'two');
    await notifier.check('p1');
    notifier.end('p1');
    vi.advanceTimersByTime(60_000);
    expect(delivered.map((n) => n.body)).toEqual(['one (Acme · vni-0/0) — Lab node']);
  });
});
