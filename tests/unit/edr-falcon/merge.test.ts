/** Device records and assessments into HostRecords: fields, RFM, the sensor window, platforms, bad records. */
import { describe, expect, it } from 'vitest';
import { HostRecord } from '../../../shared/model/edr';
import { DEFAULT_SENSOR_WINDOW_MS, parseAssessments, parseDevices, sensorRunning, toHostRecord, toPlatform } from '../../../electron/edr/falcon/merge';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const ctx = { tenantId: 't-1', now: NOW, sensorWindowMs: DEFAULT_SENSOR_WINDOW_MS };
const AID = '0123456789abcdef0123456789abcdef';

const device = (patch: Record<string, unknown> = {}) => ({
  device_id: AID,
  cid: 'c'.repeat(32),
  hostname: 'WIN-0001',
  platform_name: 'Windows',
  os_version: 'Windows 11',
  agent_version: '7.18.17106.0',
  last_seen: '2026-11-22T11:40:00Z',
  reduced_functionality_mode: 'no',
  mac_address: 'aa-bb-cc-dd-ee-ff',
  ...patch,
});

const zta = (patch: Record<string, unknown> = {}) => ({
  aid: AID.toUpperCase(),
  cid: 'c'.repeat(32),
  assessment: { sensor_config: 80, os: 60, overall: 70, version: '3.6.1' },
  assessment_items: {
    os_signals: [{ signal_id: 'bitlocker_os_drive_win', signal_name: 'BitLocker', group_name: 'Encryption', criteria: 'Enabled', meets_criteria: 'yes' }],
    sensor_signals: [{ signal_id: 'sensor_tamper_protection', criteria: 'Enabled', meets_criteria: 'maybe' }],
  },
  modified_time: '2026-11-22T10:00:00Z',
  ...patch,
});

describe('toHostRecord', () => {
  it('merges a device and its assessment into a valid HostRecord', () => {
    const { devices } = parseDevices([device()]);
    const { byAid } = parseAssessments([zta()]);
    const h = toHostRecord(devices[0]!, byAid.get(AID) ?? null, ctx);
    expect(HostRecord.parse(h)).toEqual(h);
    expect(h).toEqual({
      vendor: 'falcon',
      tenantId: 't-1',
      hostId: AID,
      hostname: 'WIN-0001',
      customerId: 'c'.repeat(32),
      platform: 'Windows',
      osVersion: 'Windows 11',
      lastSeen: '2026-11-22T11:40:00Z',
      falcon: {
        assessment: {
          os: 60,
          sensor_config: 80,
          overall: 70,
          version: '3.6.1',
          os_signals: [{ signal_id: 'bitlocker_os_drive_win', meets_criteria: 'yes', criteria: 'Enabled', group_name: 'Encryption' }],
          sensor_signals: [{ signal_id: 'sensor_tamper_protection', meets_criteria: 'unknown', criteria: 'Enabled' }],
        },
        sensorRunning: true,
        agentVersion: '7.18.17106.0',
        lastSeen: '2026-11-22T11:40:00Z',
        reducedFunctionalityMode: false,
      },
    });
  });

  it('gives hosts without an assessment null, and keeps missing fields null', () => {
    const { devices } = parseDevices([{ device_id: AID }]);
    const h = toHostRecord(devices[0]!, null, ctx);
    expect(HostRecord.safeParse(h).success).toBe(true);
    expect(h).toMatchObject({ hostname: AID, customerId: '', platform: 'Other', osVersion: null, lastSeen: null, falcon: { assessment: null, sensorRunning: false, agentVersion: null } });
  });

  it('marks a host in reduced functionality mode as not running, whatever its last_seen', () => {
    const { devices } = parseDevices([device({ reduced_functionality_mode: 'yes' })]);
    expect(toHostRecord(devices[0]!, null, ctx).falcon).toMatchObject({ reducedFunctionalityMode: true, sensorRunning: false });
    expect(parseDevices([device({ reduced_functionality_mode: 'Unknown' })]).devices[0]!.reduced_functionality_mode).toBe('Unknown');
  });
});

describe('sensorRunning', () => {
  it('is true within the window, false beyond it or without a readable last_seen', () => {
    const at = (ms: number) => new Date(NOW - ms).toISOString();
    expect(sensorRunning(at(DEFAULT_SENSOR_WINDOW_MS), false, NOW, DEFAULT_SENSOR_WINDOW_MS)).toBe(true);
    expect(sensorRunning(at(DEFAULT_SENSOR_WINDOW_MS + 1000), false, NOW, DEFAULT_SENSOR_WINDOW_MS)).toBe(false);
    expect(sensorRunning(at(-60_000), false, NOW, DEFAULT_SENSOR_WINDOW_MS)).toBe(true);
    expect(sensorRunning('yesterday-ish', false, NOW, DEFAULT_SENSOR_WINDOW_MS)).toBe(false);
    expect(sensorRunning(null, false, NOW, DEFAULT_SENSOR_WINDOW_MS)).toBe(false);
  });
});

describe('parsing vendor records', () => {
  it('maps platform names', () => {
    expect(['Windows', 'Mac', 'macOS', 'Linux', 'linux', 'K8S', undefined].map(toPlatform)).toEqual(['Windows', 'Mac', 'Mac', 'Linux', 'Linux', 'Other', 'Other']);
  });

  it('skips and counts records that do not parse', () => {
    expect(parseDevices([device(), { hostname: 'no id' }, 42, null]).invalid).toBe(3);
    const { byAid, invalid } = parseAssessments([zta(), zta({ aid: 'x', assessment: { os: 'high' } }), { nope: true }]);
    expect(invalid).toBe(2);
    expect([...byAid.keys()]).toEqual([AID]);
  });

  it('treats an assessment record without scores as not assessed, and clamps scores to 0..100', () => {
    expect(parseAssessments([zta({ assessment: null })]).byAid.size).toBe(0);
    const a = parseAssessments([zta({ assessment: { os: 130, sensor_config: -4, overall: 50 }, assessment_items: null })]).byAid.get(AID)!;
    expect(a).toEqual({ os: 100, sensor_config: 0, overall: 50, os_signals: [], sensor_signals: [] });
  });
});
