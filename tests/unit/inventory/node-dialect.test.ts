/**
 * Issue 8: the readers of the node's answers take the shapes real nodes send (under the spec's
 * renaming, and with the vendor's own `versanms.` namespace) and the older shapes alike; a
 * record they cannot read is counted, never turned into an empty list.
 */
import { describe, expect, it } from 'vitest';
import { applianceFromNode, readAppliancesPage } from '../../../electron/inventory/appliances';
import { deploymentTaskIn, deviceBody, deviceFromAnswer, deviceFromNode, deviceGroupNamesPath, readTasksPage, organizationFromNode, readDeviceGroupNames, readDevicesPage, readOrganizationsPage, sameRecord } from '../../../electron/inventory/node-api';
import { nodeTime } from '../../../electron/mgmt/node-answer';
import { errorFromResponse } from '../../../electron/mgmt/errors';

const listed = { deviceName: 'branch01', lastModifiedBy: 'Administrator', lastModifiedTime: '2023-01-16T14:18:12.666+0000', siteId: '109', workflowStatus: 'Deployed' };

describe('device workflow list', () => {
  it('finds the list under any namespace and reports the namespace', () => {
    for (const ns of ['mgmt', 'versanms']) {
      const page = readDevicesPage({ totalCount: 19, [`${ns}.sdwan-device-list`]: [listed] });
      expect(page).toEqual({ items: [listed], total: 19, namespace: ns });
    }
    expect(readDevicesPage({ totalCount: '2', devices: [listed, listed] })).toEqual({ items: [listed, listed], total: 2 });
  });

  it('refuses an answer with no list rather than reading it as empty; a page past the end may carry only its total', () => {
    expect(() => readDevicesPage({ totalCount: 3, something: [] })).not.toThrow();
    expect(readDevicesPage({ totalCount: 3 })).toEqual({ items: [], total: 3 });
    expect(() => readDevicesPage({ rows: [listed] })).toThrow(/device list the console cannot read/);
    expect(() => readDevicesPage({ 'versanms.sdwan-device-list': { deviceName: 'x' } })).toThrow(/cannot read/);
  });

  it('reads a listed device with only name, site ID, status and last change; the rest is unknown', () => {
    expect(deviceFromNode(listed)).toEqual({
      deviceName: 'branch01',
      siteId: '109',
      orgName: null,
      serialNumber: null,
      deviceGroup: null,
      locationInfo: null,
      deploymentStatus: 'deployed',
      workflowStatus: 'Deployed',
      lastModifiedBy: 'Administrator',
      lastModifiedAt: '2023-01-16T14:18:12.666Z',
      lastTaskId: null,
      appliance: null,
    });
    expect(deviceFromNode({ ...listed, workflowStatus: undefined, deploymentStatus: 'FAILED' })?.deploymentStatus).toBe('failed');
    expect(deviceFromNode({ ...listed, siteId: 109 })?.siteId).toBe('109');
    expect(deviceFromNode({ ...listed, deviceName: '' })).toBeUndefined();
    expect(deviceFromNode('branch01')).toBeUndefined();
  });
});

describe('one device workflow record', () => {
  const record = {
    deviceName: 'CPE10',
    siteId: 110,
    orgName: 'Tenant-A',
    serialNumber: 'SN-10',
    deviceGroup: 'BR-GROUP',
    locationInfo: { country: 'US', state: '', city: '', address1: '', zip: '', latitude: 37.4, longitude: -122.1 },
  };
  it('unwraps <ns>.sdwan-device-workflow, numbers as text, empty strings as unknown', () => {
    const { device, namespace } = deviceFromAnswer({ 'versanms.sdwan-device-workflow': record });
    expect(namespace).toBe('versanms');
    expect(device).toMatchObject({ deviceName: 'CPE10', siteId: '110', orgName: 'Tenant-A', locationInfo: { country: 'US', latitude: '37.4', longitude: '-122.1' } });
    expect(deviceFromAnswer({ 'mgmt.sdwan-device-workflow': { ...record, deviceGroup: '' } }).device.deviceGroup).toBeNull();
  });

  it('a PUT carries the wrapper of the namespace the node uses', () => {
    const r = { deviceName: 'CPE10', siteId: '110', orgName: 'Tenant-A', serialNumber: 'SN-10', deviceGroup: 'G', locationInfo: { country: 'US', latitude: '37.4', longitude: '-122.1' } };
    expect(Object.keys(deviceBody(r, 'versanms'))).toEqual(['versanms.sdwan-device-workflow']);
    expect(Object.keys(deviceBody(r))).toEqual(['mgmt.sdwan-device-workflow']);
    // Numbers the node sent back as numbers still compare equal to the text the console sends.
    expect(sameRecord(r, deviceFromAnswer({ 'versanms.sdwan-device-workflow': { ...record, deviceGroup: 'G' } }).device)).toBe(true);
    expect(sameRecord(r, deviceFromNode(listed)!)).toBe(false);
  });
});

describe('organization list', () => {
  const child = { uuid: 'u-2', name: 'SE-DEMO', paraentOrg: 'versa', plan: 'Default-Plan', globalOrgId: '2', providerOrg: false, depth: 2 };
  const root = { uuid: 'u-1', name: 'versa', plan: 'Default-Plan', globalOrgId: '1', description: 'parent org', providerOrg: true, depth: 1 };
  it('reads the misspelled parent key (absent on the root) and plan, and the older keys', () => {
    const page = readOrganizationsPage({ totalCount: 2, organizations: [child, root] });
    expect(page.items.map(organizationFromNode)).toEqual([
      { uuid: 'u-2', name: 'SE-DEMO', parent: 'versa', subscriptionPlan: 'Default-Plan' },
      { uuid: 'u-1', name: 'versa', parent: null, subscriptionPlan: 'Default-Plan' },
    ]);
    expect(organizationFromNode({ name: 'x', parent: 'y', subscriptionPlan: 'p' })).toMatchObject({ parent: 'y', subscriptionPlan: 'p' });
    expect(organizationFromNode({ name: 'x', parentOrg: 'y' })).toMatchObject({ parent: 'y', subscriptionPlan: null });
    expect(organizationFromNode({ uuid: 'no-name' })).toBeUndefined();
  });
});

describe('appliance list', () => {
  const appliance = {
    name: 'branch01',
    uuid: 'a-1',
    'last-updated-time': '2022-06-04 17:43:48.0',
    'ping-status': 'REACHABLE',
    'sync-status': 'OUT_OF_SYNC',
    'controll-status': 'Unavailable',
    ownerOrg: 'SE-DEMO',
    softwareVersion: '21.2.2-GA',
    branchId: '101',
    Hardware: { model: 'CSG350', serialNo: 'Not Specified', hardWareSerialNo: 'HW-77' },
    alarmSummary: { tableId: 'Alarms', columnNames: ['columnName 0'], rows: [{ firstColumnValue: 'Critical', columnValues: [2] }, { firstColumnValue: 'Major', columnValues: [1] }, { firstColumnValue: 'Minor', columnValues: [0] }, { firstColumnValue: 'Warning', columnValues: [5] }, { firstColumnValue: 'Indeterminate', columnValues: [0] }] },
  };
  it('unwraps <ns>.ApplianceStatusResult and reads state, hardware and alarms', () => {
    const page = readAppliancesPage({ 'versanms.ApplianceStatusResult': { totalCount: 11, appliances: [appliance] } });
    expect(page).toMatchObject({ total: 11, namespace: 'versanms' });
    expect(applianceFromNode(page.items[0])).toEqual({
      name: 'branch01',
      reachability: 'reachable',
      configSync: 'out-of-sync',
      pingStatus: 'REACHABLE',
      syncStatus: 'OUT_OF_SYNC',
      softwareVersion: '21.2.2-GA',
      ownerOrg: 'SE-DEMO',
      model: 'CSG350',
      serialNo: 'HW-77',
      lastUpdatedAt: '2022-06-04T17:43:48.000Z',
      alarms: { critical: 2, major: 1, minor: 0, warning: 5 },
    });
    expect(readAppliancesPage({ totalCount: 1, appliances: [appliance] }).items).toHaveLength(1);
  });

  it('reads unknown words as unknown and a missing block as null', () => {
    expect(applianceFromNode({ name: 'x', 'ping-status': 'SOMETHING', unreachable: true })).toMatchObject({ reachability: 'unreachable', configSync: 'unknown', alarms: null, model: null });
    expect(applianceFromNode({ name: 'x', 'ping-status': 'UNREACHABLE', 'sync-status': 'IN_SYNC' })).toMatchObject({ reachability: 'unreachable', configSync: 'in-sync' });
    expect(applianceFromNode({ uuid: 'nameless' })).toBeUndefined();
  });

  it('both time formats of one answer, and the workflow list format', () => {
    expect(nodeTime('2022-06-04 17:43:48.0')).toBe('2022-06-04T17:43:48.000Z');
    expect(nodeTime('2022/06/20 14:03:37')).toBe('2022-06-20T14:03:37.000Z');
    expect(nodeTime('2023-01-16T14:18:12.666+0000')).toBe('2023-01-16T14:18:12.666Z');
    expect(nodeTime('2023-01-16T16:18:12.666+02:00')).toBe('2023-01-16T14:18:12.666Z');
    expect(nodeTime('yesterday')).toBeUndefined();
    expect(nodeTime('')).toBeUndefined();
  });
});

describe('error bodies of real nodes', () => {
  const res = (status: number, body: unknown) => ({ status, contentType: 'application/json', body: JSON.stringify(body) });
  it('a VNMS-style 404 is a not-found with the node message, not an OAuth error', () => {
    const e = errorFromResponse(
      res(404, { timestamp: 1696574964569, http_status_code: 404, error: 'Not Found', exception: 'com.mgmt.common.exception.VOAEException', message: ' device work flow X does not exist ', path: '/mgmt/sdwan/workflow/devices/device/X' }),
      { host: 'node', path: '/mgmt/sdwan/workflow/devices/device/X' },
    );
    expect(e.code).toBe('http.404');
    expect(e.message).toBe('node does not know it: device work flow X does not exist');
  });

  it('the stock Spring shape too; a custom 500 keeps its code and message', () => {
    const e = errorFromResponse(res(500, { timestamp: '2024-01-01T00:00:00Z', status: 500, error: 'Internal Server Error', message: 'boom', path: '/x' }), { host: 'node' });
    expect(e.code).toBe('http.error');
    expect(e.message).toContain('boom');
    const custom = errorFromResponse(res(500, { error: { http_status_code: 500, code: 0, message: 'Device workflow [ CPE10] already exists', more_info: 'x/errors/null' } }));
    expect(custom.code).toBe('api.0');
    expect(custom.details).toMatchObject({ nodeMessage: 'Device workflow [ CPE10] already exists' });
    // A real OAuth error stays one.
    expect(errorFromResponse(res(401, { error: 'invalid_grant', error_description: 'bad' }), { operation: 'token' }).code).toBe('oauth.invalid_grant');
  });
});

describe('device group names (C-57)', () => {
  it('reads a bare list, records with a name, and either under one key; drops blanks and repeats, sorts', () => {
    expect(readDeviceGroupNames(['Retail', ' Office ', '', 'Retail', 'Branch-10', 'Branch-9'])).toEqual(['Branch-9', 'Branch-10', 'Office', 'Retail']);
    expect(readDeviceGroupNames({ deviceGroupNames: ['b', 'a'] })).toEqual(['a', 'b']);
    expect(readDeviceGroupNames({ 'device-group': [{ name: 'Sites', 'dg:organization': 'Root' }, { name: ' ' }, {}, { name: 7 }] })).toEqual(['7', 'Sites']);
    expect(readDeviceGroupNames({ 'versanms.deviceGroups': { 'device-group': [{ name: 'x' }] } })).toEqual(['x']);
    expect(readDeviceGroupNames([])).toEqual([]);
  });

  it('refuses an answer that holds no list', () => {
    for (const body of [undefined, 'Retail', { totalCount: 3 }, null]) expect(() => readDeviceGroupNames(body)).toThrow(/device group list the console cannot read/);
  });

  it('puts the organization in the query, encoded', () => {
    expect(deviceGroupNamesPath('Contoso EMEA&x=1')).toBe('/nextgen/deviceGroup/deviceGroupNames?organization=Contoso%20EMEA%26x%3D1');
  });
});

describe('the task list (C-56)', () => {
  const task = (id: string, name: string, description = '', status = 'FAILED') => ({ 'mgmt-tasks.id': id, 'mgmt-tasks.task-name': name, 'mgmt-tasks.task-description': description, 'mgmt-tasks.task-status': status, 'mgmt-tasks.errormessages': { 'mgmt-tasks.errormessage': [{ 'mgmt-tasks.message': 'No answer from the device', 'mgmt-tasks.time': '2026-11-29T10:00:00.000+0000' }] } });
  it('reads the list under the namespaced key, with its total', () => {
    expect(readTasksPage({ totalCount: 3, 'versanms-tasks.task': [1, 2] })).toEqual({ items: [1, 2], total: 3, namespace: 'versanms-tasks' });
  });

  it('finds the newest deployment of the device by name or by a whole word of the description, never by a longer name', () => {
    const items = [task('9', 'Deploy branch-10'), task('8', 'Workflow', 'Deploy the workflow of "branch-1".'), task('7', 'Deploy branch-1', '', 'COMPLETED')];
    expect(deploymentTaskIn(items, 'p1', 'branch-1')).toMatchObject({ taskId: '8', deviceName: 'branch-1', state: 'failed', message: 'No answer from the device' });
    expect(deploymentTaskIn(items, 'p1', 'branch-10')?.taskId).toBe('9');
    expect(deploymentTaskIn(items, 'p1', 'branch')).toBeUndefined();
    expect(deploymentTaskIn([null, 'x', { 'mgmt-tasks.task-name': 'Deploy branch-1' }], 'p1', 'branch-1')).toBeUndefined();
  });
});
