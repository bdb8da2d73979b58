/** Node refusals (as the mgmt client turns them into AppErrors) → issues on the wizard's fields. */
import { describe, expect, it } from 'vitest';
import { errorFromResponse } from '../../../electron/mgmt/errors';
import { deviceIssues, syslogIssues, withDeviceIssues, withSyslogIssues } from '../../../electron/inventory/field-errors';
import { AppError } from '../../../shared/model/errors';
import { DeviceRecord } from '../../../shared/model/inventory';

const custom = (status: number, code: number, message: string, description?: string) =>
  errorFromResponse({ status, contentType: 'application/json', body: JSON.stringify({ error: { http_status_code: status, code, message, ...(description ? { description } : {}), more_info: `https://docs.invalid/errors/${code}` } }) });
const yang = (status: number, tag: string, message: string) =>
  errorFromResponse({ status, contentType: 'application/json', body: JSON.stringify({ errors: { error: [{ 'error-message': message, 'error-urlpath': '/api/config/system/syslog-servers', 'error-tag': tag }] } }) });

const record = DeviceRecord.parse({
  deviceName: 'branch-berlin-01',
  siteId: '117',
  orgName: 'Contoso-EMEA',
  serialNumber: 'SN-1',
  deviceGroup: 'Retail',
  locationInfo: { country: 'de', latitude: '52.52', longitude: '13.405' },
});

describe('device refusals → fields', () => {
  it('siteId in use (HTTP 500, code 0) → siteId, naming the device that holds it', () => {
    const e = custom(500, 0, 'Global device id 117 is already in use', 'siteId: device contoso-paris-00002 uses global device id 117.');
    expect(e.code).toBe('api.0');
    const mapped = withDeviceIssues(e, record) as AppError;
    expect(mapped).toBeInstanceOf(AppError);
    expect(mapped.code).toBe('api.0');
    expect(mapped.details?.issues).toEqual([{ path: 'siteId', message: 'Site ID 117 is already used by device contoso-paris-00002 on the node.' }]);
    expect(mapped.details?.nodeMessage).toBe('Global device id 117 is already in use');
    expect(mapped.status).toBe(500);
    // Also without a description (a node that only sends the message of 7.1).
    expect(deviceIssues(custom(500, 0, 'Global device id 5 is already in use'))).toEqual([{ path: 'siteId', message: 'Site ID 5 is already used by another device on the node.' }]);
  });

  it('4016 ORG_NOT_FOUND → orgName', () => {
    const e = custom(404, 4016, 'ORG_NOT_FOUND', 'orgName: no organization named Contoso-EMEA.');
    expect(deviceIssues(e, record)).toEqual([{ path: 'orgName', message: 'There is no organization named Contoso-EMEA on the node.' }]);
    expect(deviceIssues(e)).toEqual([{ path: 'orgName', message: 'No organization named Contoso-EMEA.' }]);
  });

  it('4017 whose description starts with a field path → that path', () => {
    const e = custom(400, 4017, 'Invalid request', 'locationInfo.country: "XX" is not an ISO 3166-1 alpha-2 country code.');
    expect(deviceIssues(e)).toEqual([{ path: 'locationInfo.country', message: '"XX" is not an ISO 3166-1 alpha-2 country code.' }]);
    expect(deviceIssues(custom(400, 4017, 'Invalid request', 'deviceName: "a b" does not match the device name in the path.'))[0]?.path).toBe('deviceName');
    expect(deviceIssues(custom(400, 4017, 'Invalid request', 'locationInfo.latitude: "91" is not a decimal number'))[0]?.path).toBe('locationInfo.latitude');
  });

  it('leaves errors that name no field alone', () => {
    const wrapper = custom(400, 4017, 'Invalid request', 'mgmt.sdwan-device-workflow: the body must be an object with this key.');
    expect(deviceIssues(wrapper)).toEqual([]);
    expect(withDeviceIssues(wrapper)).toBe(wrapper);
    const forbidden = custom(401, 0, 'Access forbidden');
    expect(deviceIssues(forbidden)).toEqual([]);
    const plain = new Error('boom');
    expect(withDeviceIssues(plain)).toBe(plain);
    expect(deviceIssues(custom(500, 5000, 'INTERNAL_SERVER_ERROR', 'siteId stuff'))).toEqual([]);
  });
});

describe('syslog refusals → fields', () => {
  it('malformed-message → port', () => {
    const e = yang(400, 'malformed-message', 'server/port: "70000" is not a valid port value (1-65535).');
    expect(e.code).toBe('yang.malformed-message');
    expect(syslogIssues(e)).toEqual([{ path: 'port', message: '"70000" is not a valid port value (1-65535).' }]);
    // A node whose message names no field: still the port (spec 4.1: the non-port value is the malformed case).
    expect(syslogIssues(yang(400, 'malformed-message', 'invalid value for port'))).toEqual([{ path: 'port', message: 'Invalid value for port.' }]);
    const mapped = withSyslogIssues(e) as AppError;
    expect(mapped.code).toBe('yang.malformed-message');
    expect(mapped.details?.issues).toEqual([{ path: 'port', message: '"70000" is not a valid port value (1-65535).' }]);
  });

  it('malformed host and existing host → host', () => {
    expect(syslogIssues(yang(400, 'malformed-message', 'server/host: a host name or address is required.'))[0]?.path).toBe('host');
    expect(syslogIssues(yang(400, 'data-exists', 'server/host: a syslog server 10.0.0.5 already exists.'))).toEqual([{ path: 'host', message: 'A syslog server 10.0.0.5 already exists.' }]);
    const other = yang(500, 'operation-failed', 'disk full');
    expect(withSyslogIssues(other)).toBe(other);
  });
});
