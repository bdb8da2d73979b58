/**
 * The Overview's channels through the contract (issue 13), on the demo workspace (its node raising
 * alarms, polled without a broker) and a Defender simulator's tenant: every part says that it is
 * not known until it is (never a 0), then counts what the pages count — alarms per severity and the
 * unhandled ones as the alarm list has them, hosts per band as the ZTA snapshot has them, hosts
 * that entered High Risk as zta.overview has them, devices per status as the device list has them —
 * each as of its data; signed out, the alarms are as of the last time the node was heard.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { AlarmPage, AlarmSourceStatus } from '../../../shared/model/alarms';
import type { DeviceView } from '../../../shared/model/inventory';
import type { Overview, OverviewBadges } from '../../../shared/model/overview';
import { BANDS, type ZtaOverview, type ZtaSnapshot } from '../../../shared/model/zta';
import type { MgmtSimulator } from '@northbound/simulators/demo';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { defenderConnectorSave } from '../../support/edr-fixtures';
import { until } from '../../support/until';

const tenant = defenderTenant({ hosts: 120, seed: 13 });
let defender: DefenderSimulator;
let h: AppHarness;
let node: MgmtSimulator;
let profileId = '';
let connectorId = '';

const completed = (cycleId: number) => until(`cycle ${cycleId} completed`, () => h.pushed.some((p) => p.includes('"edr.progress"') && p.includes(`"cycleId":${cycleId}`) && p.includes('"phase":"completed"')), 30_000);
const overview = () => h.call<Overview>('overview.get', { profileId });
const badges = () => h.call<OverviewBadges>('overview.badges', { profileId });
const isoNear = (iso: string, ms: number, slackMs: number) => Math.abs(Date.parse(iso) - ms) <= slackMs;

// The Defender simulator only answers; each test has an app of its own (fresh data folder) and
// opens the demo itself when it needs it, so any test runs alone and in any order.
beforeAll(async () => {
  defender = await startDefenderSimulator({ tenants: [tenant] });
});
afterAll(async () => {
  await defender?.close();
});
beforeEach(async () => {
  profileId = '';
  connectorId = '';
  h = await startAppHarness({ app: { demoEdr: false, edr: { publishDelayMs: 20, firstPullDelayMs: 600_000 }, alarms: { pollIntervalMs: 100, changedEveryMs: 20, statusEveryMs: 50 } } });
});
afterEach(async () => {
  await h?.close();
});

/** Opens the demo workspace, its generator stopped, and waits until 80 alarm changes are stored. */
async function openDemoWithAlarms(): Promise<void> {
  await h.call('demo.open');
  node = h.app.demo.simulator!;
  node.alarms.generator.stop(true);
  profileId = h.app.demo.status().oauthProfileId!;
  await until('the alarm source live', async () => (await h.call<AlarmSourceStatus>('alarms.status', { profileId })).state === 'live');
  node.alarms.generator.step(80);
  const changes = node.alarms.lastMessageId();
  await until('every change stored', async () => (await h.call<AlarmSourceStatus>('alarms.status', { profileId })).stored.changes === changes);
}

describe('overview channels', () => {
  it('with nothing configured every part says what is missing, and the badges know no number', async () => {
    const o = await h.call<Overview>('overview.get', {});
    expect(o).toMatchObject({
      connection: null,
      setup: { connections: 0, connectors: 0, demoRunning: false },
      alarms: { state: 'no-connection' },
      risk: { state: 'no-connectors' },
      devices: { state: 'no-connection' },
      connectors: [],
    });
    expect(isoNear(o.generatedAt, Date.now(), 5_000)).toBe(true);
    expect(await h.call<OverviewBadges>('overview.badges', {})).toEqual({ criticalUnacknowledged: null, highRisk: null });
    // A connection that does not exist (deleted meanwhile) reads as none: the page still answers.
    expect((await h.call<Overview>('overview.get', { profileId: 'gone' })).connection).toBeNull();
    // The request is checked like every other.
    expect((await h.callRaw('overview.get', { profileId: 'x', extra: 1 })).ok).toBe(false);
  });

  it('counts the connection’s active alarms per severity and the unhandled ones as the alarm list does, live, and follows an acknowledgement', async () => {
    await openDemoWithAlarms();
    const o = await overview();
    expect(o.connection).toEqual({ profileId, name: 'Demo node (OAuth)', signedIn: true });
    expect(o.setup).toMatchObject({ connections: 2, demoRunning: true });
    if (o.alarms.state !== 'known') throw new Error(`alarms ${o.alarms.state}`);
    expect(o.alarms).toMatchObject({ live: true, source: 'poll' });
    expect(o.alarms.asOf).toBe(o.generatedAt);
    const active = (await h.call<AlarmPage>('alarms.list', { profileId, limit: 1000 })).rows;
    expect(o.alarms.active.total).toBe(active.length);
    expect(active.length).toBeGreaterThan(0);
    for (const s of ['critical', 'major', 'minor', 'warning', 'indeterminate'] as const) expect(o.alarms.active[s]).toBe(active.filter((a) => a.severity === s).length);
    expect(o.alarms.unacknowledged.total).toBe(active.length);
    // The organizations with active alarms: the most critical first, up to the cap, the rest counted.
    const orgs = new Set(active.map((a) => a.org));
    expect(o.alarms.organizations.length + o.alarms.moreOrganizations).toBe(orgs.size);
    for (const x of o.alarms.organizations) expect(x.total).toBe(active.filter((a) => a.org === x.org).length);
    expect(o.alarms.organizations.map((x) => x.critical)).toEqual(o.alarms.organizations.map((x) => x.critical).sort((a, b) => b - a));
    const before = await badges();
    expect(before.criticalUnacknowledged).toBe(o.alarms.unacknowledged.critical);
    expect(before.highRisk).toBeNull();

    // Acknowledged on the node: one fewer unhandled, as many active.
    const target = active.find((a) => a.severity === 'critical') ?? active[0]!;
    await h.call('alarms.acknowledge', { profileId, ids: [target.id], note: 'mine' });
    const after = await overview();
    if (after.alarms.state !== 'known') throw new Error('alarms unknown');
    expect(after.alarms.active.total).toBe(o.alarms.active.total);
    expect(after.alarms.unacknowledged.total).toBe(o.alarms.unacknowledged.total - 1);
    expect(after.alarms.unacknowledged[target.severity as 'critical']).toBe(o.alarms.unacknowledged[target.severity as 'critical'] - 1);
    expect((await badges()).criticalUnacknowledged).toBe(after.alarms.unacknowledged.critical);
  });

  it('says the devices were never fetched, then counts them per deployment status as the device list does, as of the fetch', async () => {
    await openDemoWithAlarms();
    expect((await overview()).devices).toEqual({ state: 'never' });
    await h.call('inventory.refresh', { profileId, what: 'devices' });
    const list = await h.call<{ fetchedAt: string | null; items: DeviceView[] }>('inventory.devices', { profileId });
    const o = await overview();
    if (o.devices.state !== 'known') throw new Error(`devices ${o.devices.state}`);
    expect(o.devices.asOf).toBe(list.fetchedAt);
    expect(o.devices.total).toBe(list.items.length);
    for (const s of ['saved', 'deploying', 'deployed', 'failed'] as const) expect(o.devices.byStatus[s]).toBe(list.items.filter((d) => d.deploymentStatus === s).length);
    expect(o.devices.byStatus.failed).toBeGreaterThan(0);
    const failed = new Set(list.items.filter((d) => d.deploymentStatus === 'failed').map((d) => d.deviceName));
    expect(o.devices.failed.length).toBe(Math.min(5, failed.size));
    for (const f of o.devices.failed) expect(failed.has(f.deviceName)).toBe(true);
  });

  it('scores: unknown before a cycle, then the bands as the snapshot has them, and the hosts that entered High Risk as the dashboard has them', async () => {
    await openDemoWithAlarms();
    const saved = await h.call<{ id: string }>('connectors.save', defenderConnectorSave(defender, tenant, { name: 'Contoso Defender' }));
    connectorId = saved.id;
    let o = await overview();
    expect(o.risk).toEqual({ state: 'never', connectors: 1 });
    expect(o.connectors).toEqual([expect.objectContaining({ connectorId, name: 'Contoso Defender', health: 'never', asOf: null, hosts: null, publication: { state: 'none' }, enabled: true })]);
    expect((await badges()).highRisk).toBeNull();

    const first = (await h.call<{ cycleId: number }>('connectors.pollNow', { connectorId })).cycleId;
    await completed(first);
    o = await overview();
    if (o.risk.state !== 'known') throw new Error(`risk ${o.risk.state}`);
    const s = await h.call<ZtaSnapshot>('zta.snapshot');
    expect(o.risk.asOf).toBe(s.asOf);
    expect(o.risk.hosts).toBe(120);
    for (const [i, b] of BANDS.entries()) expect(o.risk.bands[b], b).toBe(s.rows.band.filter((x) => x === i).length);
    expect(o.risk.entered).toEqual({ state: 'first-cycle' });
    expect(o.risk.trend).toHaveLength(1);
    expect((await badges()).highRisk).toBe(o.risk.bands['High Risk']);
    // Published to the signed-in node shortly after the cycle.
    await until('the cycle published', async () => (await overview()).connectors[0]!.publication.state === 'published', 10_000);
    const c = (await overview()).connectors[0]!;
    expect(c).toMatchObject({ health: 'online', hosts: 120, asOf: s.asOf, lastError: null, running: false });
    expect(c.nextCycleAt).not.toBeNull();

    // Stricter band edges put hosts into High Risk in a cycle of their own.
    const { cycleId } = await h.call<{ cycleId: number }>('zta.applyRisk', { connectorId, risk: { bands: [5, 10, 15, 20] } });
    await completed(cycleId!);
    o = await overview();
    if (o.risk.state !== 'known' || o.risk.entered.state !== 'known') throw new Error('entered unknown');
    const dashboard = await h.call<ZtaOverview>('zta.overview', {});
    expect(o.risk.entered.count).toBe(dashboard.changes.enteredHighRisk.length);
    expect(o.risk.entered.count).toBeGreaterThan(0);
    expect(o.risk.entered.since).toBe(s.asOf);
    expect(o.risk.entered.hosts.length).toBe(Math.min(5, o.risk.entered.count));
    expect(o.risk.trend).toHaveLength(2);
    expect(o.risk.bands['High Risk']).toBe(s.rows.band.filter((x) => x === 4).length + o.risk.entered.count - dashboard.changes.leftHighRisk.length);
  });

  it('signed out, the alarms stand as of the last time the node was heard, no longer live', async () => {
    await openDemoWithAlarms();
    await h.call('session.signOut', { profileId });
    await until('the source stopped', async () => (await h.call<AlarmSourceStatus>('alarms.status', { profileId })).source === 'none');
    const o = await overview();
    expect(o.connection?.signedIn).toBe(false);
    if (o.alarms.state !== 'known') throw new Error(`alarms ${o.alarms.state}`);
    expect(o.alarms.live).toBe(false);
    const heard = (await h.app.alarms.status(profileId)).lastBackfillAt!;
    expect(o.alarms.asOf).toBe(heard);
    expect(Date.parse(o.alarms.asOf)).toBeLessThan(Date.parse(o.generatedAt));
    // The other demo connection never signed in: nothing collected is not 0 alarms.
    const basic = h.app.demo.status().profileId!;
    expect((await h.call<Overview>('overview.get', { profileId: basic })).alarms).toEqual({ state: 'never', collecting: false });
    expect((await h.call<OverviewBadges>('overview.badges', { profileId: basic })).criticalUnacknowledged).toBeNull();
  });
});
