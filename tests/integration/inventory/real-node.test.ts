/**
 * Issue 8, as an operator with a real node would meet it: the console against a server that
 * replays answers in the shapes recorded from live nodes (tests/fixtures/mgmt-node, see
 * PROVENANCE.md). Every device listed with its deployed state and site ID, both organizations
 * with their parent and plan, the appliance list's reachability and sync on the devices; with
 * the vendor's own namespace, the PUT carries the wrapper the node uses.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceView, OrganizationView } from '../../../shared/model/inventory';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { REPLAY_PATHS, mgmtFixtures, startReplayNode, type ReplayNode } from '../../support/replay-node';

let node: ReplayNode | undefined;
let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  await node?.close();
  h = undefined;
  node = undefined;
});

async function connect(n: ReplayNode): Promise<{ h: AppHarness; profileId: string }> {
  const harness = await startAppHarness({ app: { demoEdr: false } });
  const profile = await harness.call<{ id: string }>('profiles.save', {
    name: 'Replayed node',
    host: '127.0.0.1',
    basicPort: n.basicPort,
    oauthPort: n.basicPort,
    authMode: 'basic',
    username: 'Administrator',
    password: 'any-password-1',
    tls: { mode: 'custom-ca', caName: 'replay.pem', caPem: n.certificatePem },
  });
  await harness.call('session.signIn', { profileId: profile.id });
  return { h: harness, profileId: profile.id };
}

/** The fixtures' keys with the vendor's namespace instead of the spec's (`mgmt.` → `versanms.`). */
const vendorNamespace = (body: unknown): unknown => JSON.parse(JSON.stringify(body).replace(/"mgmt\./g, '"versanms.'));

describe('a node answering in the recorded shapes', () => {
  it('lists 19 of 19 devices with their deployed state and site IDs, both organizations with parent and plan, and the appliance state', async () => {
    node = await startReplayNode();
    const c = await connect(node);
    h = c.h;
    const r = await h.call<{ devices: number; organizations: number }>('inventory.refresh', { profileId: c.profileId });
    expect(r).toMatchObject({ devices: 19, organizations: 2 });

    const recorded = mgmtFixtures.deviceList['mgmt.sdwan-device-list'];
    const devices = await h.call<{ items: DeviceView[]; unreadable: number }>('inventory.devices', { profileId: c.profileId });
    expect(devices.unreadable).toBe(0);
    expect(devices.items).toHaveLength(19);
    expect(new Set(devices.items.map((d) => d.deviceName))).toEqual(new Set(recorded.map((d) => d.deviceName)));
    for (const d of recorded) {
      expect(devices.items.find((x) => x.deviceName === d.deviceName)).toMatchObject({ siteId: d.siteId, deploymentStatus: 'deployed', workflowStatus: 'Deployed', lastModifiedBy: d.lastModifiedBy });
    }

    const orgs = await h.call<{ items: OrganizationView[] }>('inventory.organizations', { profileId: c.profileId });
    const recordedOrgs = mgmtFixtures.organizationList.organizations;
    expect(orgs.items.map((o) => ({ name: o.name, parent: o.parent, plan: o.effectivePlan, depth: o.depth }))).toEqual(
      expect.arrayContaining(
        recordedOrgs.map((o) => ({ name: o.name, parent: (o as { paraentOrg?: string }).paraentOrg ?? null, plan: o.plan, depth: (o as { paraentOrg?: string }).paraentOrg ? 1 : 0 })),
      ),
    );
    const child = orgs.items.find((o) => o.parent !== null)!;
    expect(child.inheritedFrom).toBe(child.parent);

    // Reachability and sync from the appliance list, by device name.
    const appliances = mgmtFixtures.applianceList['mgmt.ApplianceStatusResult'].appliances;
    for (const a of appliances.filter((x) => recorded.some((d) => d.deviceName === x.name))) {
      const d = devices.items.find((x) => x.deviceName === a.name)!;
      expect(d.appliance, a.name).toMatchObject({
        reachability: a['ping-status'] === 'REACHABLE' ? 'reachable' : 'unreachable',
        pingStatus: a['ping-status'],
        syncStatus: a['sync-status'],
        softwareVersion: a.softwareVersion,
      });
      expect(d.orgName).toBe(a.ownerOrg);
    }
    const withoutAppliance = devices.items.filter((d) => !appliances.some((a) => a.name === d.deviceName));
    expect(withoutAppliance.length).toBeGreaterThan(0);
    for (const d of withoutAppliance) expect(d.appliance).toBeNull();
  });

  it('learns the vendor namespace from the answers: the PUT carries its wrapper; a record fetched completes a listed device', async () => {
    node = await startReplayNode({
      routes: {
        [REPLAY_PATHS.devices]: { body: vendorNamespace(mgmtFixtures.deviceList) },
        [REPLAY_PATHS.appliances]: { body: vendorNamespace(mgmtFixtures.applianceList) },
        [`GET ${REPLAY_PATHS.device('fra-branch01')}`]: { body: vendorNamespace(mgmtFixtures.deviceRecord) },
        [`PUT ${REPLAY_PATHS.device('new-branch01')}`]: (req) => ({ body: JSON.parse(req.body) as unknown }),
      },
    });
    const c = await connect(node);
    h = c.h;
    await h.call('inventory.refresh', { profileId: c.profileId, what: 'devices' });
    const fetched = await h.call<DeviceView>('devices.get', { profileId: c.profileId, deviceName: 'fra-branch01' });
    const record = mgmtFixtures.deviceRecord['mgmt.sdwan-device-workflow'];
    expect(fetched).toMatchObject({ deviceName: 'fra-branch01', siteId: String(record.siteId), orgName: record.orgName, deviceGroup: record.deviceGroup, deploymentStatus: 'deployed' });

    const device = { deviceName: 'new-branch01', siteId: '140', orgName: record.orgName, serialNumber: 'SN-NEW-01', deviceGroup: record.deviceGroup, locationInfo: { country: 'DE', latitude: '50.11', longitude: '8.68' } };
    const onboarded = await h.call<DeviceView>('devices.onboard', { profileId: c.profileId, device });
    expect(onboarded).toMatchObject({ deviceName: 'new-branch01', siteId: '140', deploymentStatus: 'saved' });
    const put = node.requests.find((q) => q.method === 'PUT')!;
    expect(Object.keys(JSON.parse(put.body) as object)).toEqual(['versanms.sdwan-device-workflow']);
  });

  it('a record it cannot read is counted and said, never an empty list', async () => {
    const list = mgmtFixtures.deviceList;
    const broken = { ...list, totalCount: 21, 'mgmt.sdwan-device-list': [...list['mgmt.sdwan-device-list'], { siteId: '120' }, 'garbage'] };
    node = await startReplayNode({ routes: { [REPLAY_PATHS.devices]: { body: broken } } });
    const c = await connect(node);
    h = c.h;
    await h.call('inventory.refresh', { profileId: c.profileId, what: 'devices' });
    const devices = await h.call<{ items: DeviceView[]; unreadable: number }>('inventory.devices', { profileId: c.profileId });
    expect(devices).toMatchObject({ unreadable: 2 });
    expect(devices.items).toHaveLength(19);
    expect(h.pushed.some((p) => p.includes('2 device record(s) from the node could not be read'))).toBe(true);
  });
});
