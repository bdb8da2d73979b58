/**
 * The Overview's aggregates (issue 13) against the rows they summarise: alarms per severity and
 * organization with the unhandled ones (alarms.db), devices per deployment status and the failed
 * deployments (inventory.db), hosts per band over each connector's newest cycle and the cycle a
 * connector's changes compare against (edr.db). Each count is checked against the same count made
 * from the full rows the pages list.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AlarmDb } from '../../../electron/alarms/store/alarms-db';
import { alarmOverview, alarmsCollected, criticalUnacknowledged, newestChangeMs } from '../../../electron/alarms/store/alarms-overview';
import { listAlarms } from '../../../electron/alarms/store/alarms-views';
import { EdrDb } from '../../../electron/edr/store/edr-db';
import { InventoryDb } from '../../../electron/inventory/store/inventory-db';
import { ACTIVE_SEVERITIES, type AlarmItem, type HandlingState } from '../../../shared/model/alarms';
import type { ScoredHost } from '../../../shared/model/edr';
import type { DeviceView } from '../../../shared/model/inventory';
import { BANDS } from '../../../shared/model/zta';
import { makeScoredHosts } from '../../support/edr-fixtures';

const dirs: string[] = [];
const closers: Array<() => void> = [];
const tmp = () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-overview-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const c of closers.splice(0)) c();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const T = Date.UTC(2026, 10, 25, 8);
const SEVERITIES = ['critical', 'major', 'minor', 'warning', 'indeterminate', 'cleared'] as const;

/** Alarm i of a connection: a severity, an organization and a handling that vary with i. */
function alarm(i: number): AlarmItem {
  const severity = SEVERITIES[(i * 7) % SEVERITIES.length]!;
  const handling: HandlingState | null = i % 5 === 0 ? 'ack' : i % 11 === 0 ? 'none' : i % 13 === 0 ? 'investigation' : null;
  return {
    head: { device: `dev-${i % 17}`, deviceName: `dev-${i % 17}`, org: `org-${i % 4}`, object: `vni-0/${i}`, type: 'interface-down', specificProblem: 'link-down', severity, cleared: severity === 'cleared', text: `alarm ${i}`, lastChangeMs: T + i },
    changes: [{ eventMs: T + i, severity, text: `alarm ${i}` }],
    handlings: handling ? [{ atMs: T + i + 1, state: handling, user: 'ops', description: '' }] : [],
    messageId: null,
  };
}

describe('alarms.db: the Overview counts', () => {
  const open = () => {
    const store = new AlarmDb(path.join(tmp(), 'alarms.db'));
    closers.push(() => store.close());
    return store;
  };

  it('counts active alarms per severity and organization, and those nobody handled, as the list counts them', () => {
    const store = open();
    store.ingest('p1', Array.from({ length: 300 }, (_, i) => alarm(i)), { storedMs: T + 1000 });
    // Another connection's alarms are not counted.
    store.ingest('p2', Array.from({ length: 40 }, (_, i) => alarm(i)), { storedMs: T + 1000 });
    const o = alarmOverview(store.db, 'p1');
    const active = listAlarms(store.db, 'p1', {}, 0, 1000).rows;
    expect(o.active.total).toBe(active.length);
    expect(active.length).toBe(250); // one in six is cleared
    const unhandled = (a: (typeof active)[number]) => a.handling === null || a.handling.state === 'none';
    for (const s of ACTIVE_SEVERITIES) {
      expect(o.active[s]).toBe(active.filter((a) => a.severity === s).length);
      expect(o.unacknowledged[s]).toBe(active.filter((a) => a.severity === s && unhandled(a)).length);
    }
    expect(o.unacknowledged.total).toBe(active.filter(unhandled).length);
    expect(o.unacknowledged.total).toBeLessThan(o.active.total);
    for (const org of o.organizations) {
      const mine = active.filter((a) => a.org === org.org);
      expect(org.total).toBe(mine.length);
      expect(org.critical).toBe(mine.filter((a) => a.severity === 'critical').length);
      expect(org.unacknowledged).toBe(mine.filter(unhandled).length);
    }
    expect(o.organizations.map((x) => x.org).sort()).toEqual(['org-0', 'org-1', 'org-2', 'org-3']);
    expect(criticalUnacknowledged(store.db, 'p1')).toBe(o.unacknowledged.critical);
  });

  it('lists the organizations with the most critical alarms first, then major, then by name', () => {
    const store = open();
    const one = (org: string, severity: (typeof SEVERITIES)[number], n: number) =>
      Array.from({ length: n }, (_, i): AlarmItem => ({ ...alarm(0), head: { ...alarm(0).head, org, severity, cleared: false, object: `${org}-${severity}-${i}` }, changes: [{ eventMs: T, severity, text: '' }], handlings: [] }));
    store.ingest('p1', [...one('Beta', 'major', 5), ...one('Alpha', 'major', 5), ...one('Gamma', 'critical', 1), ...one('Delta', 'minor', 9), ...one('Epsilon', 'critical', 1), ...one('Epsilon', 'major', 1)], { storedMs: T });
    expect(alarmOverview(store.db, 'p1').organizations.map((o) => o.org)).toEqual(['Epsilon', 'Gamma', 'Alpha', 'Beta', 'Delta']);
  });

  it('tells a connection never collected from one whose node has no alarm', () => {
    const store = open();
    expect(alarmsCollected(store.db, 'p1')).toBe(false);
    expect(newestChangeMs(store.db, 'p1')).toBe(0);
    store.recordBackfill('p1', T, 0);
    expect(alarmsCollected(store.db, 'p1')).toBe(true);
    expect(alarmOverview(store.db, 'p1').active.total).toBe(0);
    store.ingest('p2', [alarm(3)], { storedMs: T });
    expect(alarmsCollected(store.db, 'p2')).toBe(true);
    expect(newestChangeMs(store.db, 'p2')).toBe(T + 3);
  });
});

describe('inventory.db: the Overview counts', () => {
  const device = (i: number, patch: Partial<DeviceView> = {}): DeviceView => ({
    deviceName: `branch-${String(i).padStart(5, '0')}`,
    siteId: String(i + 1),
    orgName: `org-${i % 7}`,
    serialNumber: `SN${i}`,
    deviceGroup: 'Retail',
    locationInfo: null,
    deploymentStatus: (['saved', 'deploying', 'deployed', 'failed'] as const)[i % 4]!,
    workflowStatus: null,
    lastModifiedBy: null,
    lastModifiedAt: `2026-11-2${i % 10}T10:00:00.000Z`,
    lastTaskId: null,
    appliance: null,
    ...patch,
  });

  it('counts devices per deployment status as the list has them, and lists failed deployments newest first with the failed task’s message', () => {
    const store = new InventoryDb(path.join(tmp(), 'inventory.db'));
    closers.push(() => store.close());
    expect(store.deploymentCounts('p1')).toEqual({ saved: 0, deploying: 0, deployed: 0, failed: 0, total: 0 });
    const devices = Array.from({ length: 103 }, (_, i) => device(i));
    store.replaceDevices('p1', devices, '2026-11-25T08:00:00.000Z');
    store.replaceDevices('p2', [device(3)], '2026-11-25T08:00:00.000Z');
    const counts = store.deploymentCounts('p1');
    const items = store.devices('p1').items;
    for (const s of ['saved', 'deploying', 'deployed', 'failed'] as const) expect(counts[s]).toBe(items.filter((d) => d.deploymentStatus === s).length);
    expect(counts.total).toBe(103);

    // A deployment the console followed: its task's end and message.
    store.putTask({ profileId: 'p1', taskId: '77', deviceName: 'branch-00003', state: 'failed', percent: 40, message: 'Device did not answer', startedAt: '2026-12-01T09:00:00.000Z', endedAt: '2026-12-01T09:05:00.000Z', steps: [] });
    store.setDeploymentStatus('p1', 'branch-00003', 'failed', '77');
    const failed = store.failedDeployments('p1', 5);
    expect(failed[0]).toEqual({ deviceName: 'branch-00003', orgName: 'org-3', at: '2026-12-01T09:05:00.000Z', message: 'Device did not answer' });
    expect(failed).toHaveLength(5);
    const ats = failed.slice(1).map((f) => f.at!);
    expect(ats).toEqual([...ats].sort().reverse());
    expect(failed.every((f) => items.find((d) => d.deviceName === f.deviceName)?.deploymentStatus === 'failed')).toBe(true);
  });
});

describe('edr.db: the Overview counts', () => {
  let minute = 0;
  function cycle(store: EdrDb, hosts: ScoredHost[], connectorId: string): number {
    minute += 10;
    const at = new Date(Date.UTC(2026, 10, 22, 0, minute));
    const id = store.beginCycle(connectorId, 'defender', connectorId, at);
    store.stageScores(id, connectorId, hosts);
    store.commitCycle(id, new Date(at.getTime() + 30_000));
    return id;
  }

  it('sums hosts per band over each connector’s newest cycle as the stored hosts have them, and knows the cycle before', () => {
    const store = new EdrDb(path.join(tmp(), 'edr.db'));
    closers.push(() => store.close());
    const a1 = cycle(store, makeScoredHosts(120, { tenantId: 'a' }), 'conn-a');
    expect(store.views.previousCycle('conn-a', a1)).toBeUndefined();
    const b1 = cycle(store, makeScoredHosts(45, { tenantId: 'b', cycleSalt: 3 }), 'conn-b');
    const a2 = cycle(store, makeScoredHosts(120, { tenantId: 'a', cycleSalt: 1 }), 'conn-a');
    expect(store.views.previousCycle('conn-a', a2)).toEqual({ id: a1, at: store.cycle(a1)!.finishedAt });
    const totals = store.views.bandTotals([a2, b1]);
    const latest = store.latestScores({ limit: 100_000 });
    expect(latest).toHaveLength(165);
    for (const b of BANDS) expect(totals[b]).toBe(latest.filter((h) => h.band === b).length);
    expect(totals['High Risk']).toBeGreaterThan(0);
    expect(store.views.bandTotals([])).toEqual({ Trustworthy: 0, 'Low Risk': 0, 'Moderate Risk': 0, Suspicious: 0, 'High Risk': 0, 'Not assessed': 0 });
  });
});

describe('edr.db: the band trend over time (EDR-Z14)', () => {
  function cycleAt(store: EdrDb, hosts: ScoredHost[], connectorId: string, at: Date): number {
    const id = store.beginCycle(connectorId, 'defender', connectorId, new Date(at.getTime() - 5_000));
    store.stageScores(id, connectorId, hosts);
    store.commitCycle(id, at);
    return id;
  }
  const total = (b: Record<string, number>) => Object.values(b).reduce((x, y) => x + y, 0);

  it('is one point for tenants polled together, a point of its own for a tenant’s next cycle, and carries each tenant forward', () => {
    const store = new EdrDb(path.join(tmp(), 'edr.db'));
    closers.push(() => store.close());
    const t0 = Date.UTC(2026, 10, 22, 17, 25);
    cycleAt(store, makeScoredHosts(250, { tenantId: 'a' }), 'conn-a', new Date(t0));
    cycleAt(store, makeScoredHosts(250, { tenantId: 'b' }), 'conn-b', new Date(t0 + 2_000)); // the same moment
    cycleAt(store, makeScoredHosts(250, { tenantId: 'a', cycleSalt: 1 }), 'conn-a', new Date(t0 + 20_000)); // a's rescore: its own point
    cycleAt(store, makeScoredHosts(250, { tenantId: 'b', cycleSalt: 1 }), 'conn-b', new Date(t0 + 600_000)); // ten minutes later
    const points = store.views.trend({ connectors: new Set(['conn-a', 'conn-b']) });
    expect(points.map((p) => p.at)).toEqual([new Date(t0 + 2_000), new Date(t0 + 20_000), new Date(t0 + 600_000)].map((d) => d.toISOString()));
    // Never a point of one tenant alone: the fleet is 500 hosts at every moment.
    expect(points.map((p) => total(p.bands))).toEqual([500, 500, 500]);
    // One tenant asked for: its own cycles only.
    expect(store.views.trend({ connectors: new Set(['conn-b']) }).map((p) => total(p.bands))).toEqual([250, 250]);
  });
});

