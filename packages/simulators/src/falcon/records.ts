/**
 * The device record (GET/POST /devices/entities/devices/v2) and the Zero Trust Assessment
 * (GET /zero-trust-assessment/entities/assessments/v1) of one simulated host, with the field
 * names and value styles of the public Falcon API.
 */
import type { HostTraits, SimPlatform, SimTenant } from './tenant';

const iso = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;
const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
const byte = (r: () => number) => Math.floor(r() * 256);

const OS: Record<SimPlatform, Record<string, readonly (readonly [string, string, string, string])[]>> = {
  // [os_version, os_product_name, major, minor]
  Windows: {
    Workstation: [
      ['Windows 11', 'Windows 11 Enterprise', '10', '0'],
      ['Windows 10', 'Windows 10 Enterprise', '10', '0'],
    ],
    Server: [
      ['Windows Server 2022', 'Windows Server 2022 Standard', '10', '0'],
      ['Windows Server 2019', 'Windows Server 2019 Datacenter', '10', '0'],
    ],
    'Domain Controller': [['Windows Server 2022', 'Windows Server 2022 Datacenter', '10', '0']],
  },
  Mac: {
    Workstation: [
      ['Sonoma (14)', 'macOS', '23', '5'],
      ['Sequoia (15)', 'macOS', '24', '1'],
      ['Ventura (13)', 'macOS', '22', '6'],
    ],
  },
  Linux: {
    Server: [
      ['Ubuntu 22.04', 'Ubuntu', '5', '15'],
      ['RHEL 9.3', 'Red Hat Enterprise Linux', '5', '14'],
      ['Amazon Linux 2023', 'Amazon Linux', '6', '1'],
    ],
    Workstation: [['Ubuntu 24.04', 'Ubuntu', '6', '8']],
  },
};

const MAKERS: Record<SimPlatform, readonly (readonly [string, string])[]> = {
  Windows: [
    ['Dell Inc.', 'Latitude 7440'],
    ['LENOVO', '21HD0029US'],
    ['HP', 'HP EliteBook 840 G10'],
    ['VMware, Inc.', 'VMware7,1'],
  ],
  Mac: [
    ['Apple Inc.', 'MacBookPro18,3'],
    ['Apple Inc.', 'Mac14,2'],
  ],
  Linux: [
    ['Amazon EC2', 't3.large'],
    ['QEMU', 'Standard PC (Q35 + ICH9, 2009)'],
    ['Dell Inc.', 'PowerEdge R650'],
  ],
};

const PLATFORM_ID: Record<SimPlatform, string> = { Windows: '0', Mac: '1', Linux: '3' };
const EVENT_PLATFORM: Record<SimPlatform, string> = { Windows: 'Win', Mac: 'Mac', Linux: 'Lin' };

export function deviceRecord(t: SimTenant, h: HostTraits): Record<string, unknown> {
  const r = h.r;
  const [osVersion, osProduct, major, minor] = pick(r, OS[h.platform][h.product] ?? OS[h.platform].Workstation ?? []) ?? ['Unknown', 'Unknown', '0', '0'];
  const [maker, model] = pick(r, MAKERS[h.platform]);
  let mac = '';
  for (let i = 0; i < 6; i++) mac += `${i > 0 ? '-' : ''}${byte(r).toString(16).padStart(2, '0')}`;
  const build = 16000 + Math.floor(r() * 3000);
  const lastSeen = iso(t.anchorMs - h.lastSeenAgoMs);
  return {
    device_id: h.deviceId,
    cid: t.cid,
    agent_load_flags: '0',
    agent_local_time: lastSeen,
    agent_version: `7.${14 + Math.floor(r() * 6)}.${build}.0`,
    bios_manufacturer: maker,
    bios_version: `${1 + Math.floor(r() * 3)}.${Math.floor(r() * 30)}.0`,
    config_id_base: '65994763',
    config_id_build: String(build),
    config_id_platform: String(h.platform === 'Windows' ? 3 : h.platform === 'Mac' ? 4 : 8),
    cpu_signature: String(400000 + Math.floor(r() * 400000)),
    external_ip: `203.0.113.${byte(r)}`,
    mac_address: mac,
    hostname: h.hostname,
    first_seen: iso(t.anchorMs - h.firstSeenAgoMs),
    last_seen: lastSeen,
    local_ip: `10.${byte(r)}.${byte(r)}.${1 + Math.floor(r() * 254)}`,
    machine_domain: h.platform === 'Windows' ? 'corp.example.com' : '',
    major_version: major,
    minor_version: minor,
    os_version: osVersion,
    os_product_name: osProduct,
    os_build: String(build),
    platform_id: PLATFORM_ID[h.platform],
    platform_name: h.platform,
    product_type: h.product === 'Workstation' ? '1' : h.product === 'Domain Controller' ? '2' : '3',
    product_type_desc: h.product,
    provision_status: 'Provisioned',
    reduced_functionality_mode: h.reducedFunctionality ? 'yes' : 'no',
    serial_number: h.serial,
    status: h.contained ? 'contained' : 'normal',
    system_manufacturer: maker,
    system_product_name: model,
    chassis_type_desc: h.product === 'Workstation' ? 'Laptop' : 'Other',
    groups: [],
    group_hash: '',
    tags: [],
    device_policies: {
      prevention: { policy_type: 'prevention', policy_id: `${t.cid.slice(0, 16)}0000000000000001`, applied: true },
    },
    modified_timestamp: lastSeen,
    meta: { version: String(100 + Math.floor(r() * 900)) },
  };
}

type SignalSpec = readonly [id: string, name: string, group: string, criteria: string, weight: number];

const OS_SIGNALS: Record<SimPlatform, readonly SignalSpec[]> = {
  Windows: [
    ['application_guard_win', 'Application Guard', 'Windows Security', 'Enabled', 1],
    ['bitlocker_os_drive_win', 'BitLocker OS drive', 'Encryption', 'Enabled', 3],
    ['firewall_domain_win', 'Domain firewall', 'Firewall', 'Enabled', 2],
    ['secure_boot_win', 'Secure Boot', 'Boot', 'Enabled', 2],
    ['credential_guard_win', 'Credential Guard', 'Windows Security', 'Enabled', 1],
    ['uac_win', 'User Account Control', 'Windows Security', 'Enabled', 1],
  ],
  Mac: [
    ['filevault_mac', 'FileVault', 'Encryption', 'Enabled', 3],
    ['gatekeeper_mac', 'Gatekeeper', 'Security', 'Enabled', 2],
    ['sip_mac', 'System Integrity Protection', 'Security', 'Enabled', 2],
    ['firewall_mac', 'Application firewall', 'Firewall', 'Enabled', 1],
    ['remote_login_mac', 'Remote login', 'Sharing', 'Disabled', 1],
  ],
  Linux: [
    ['secure_boot_lin', 'Secure Boot', 'Boot', 'Enabled', 2],
    ['selinux_lin', 'SELinux enforcing', 'Security', 'Enforcing', 2],
    ['firewall_lin', 'Host firewall', 'Firewall', 'Enabled', 1],
  ],
};

const SENSOR_SIGNALS: readonly SignalSpec[] = [
  ['sensor_tamper_protection', 'Sensor tamper protection', 'Sensor', 'Enabled', 3],
  ['ml_prevention_cloud', 'Cloud machine learning prevention', 'Prevention policy', 'Moderate or higher', 2],
  ['ml_prevention_sensor', 'Sensor machine learning prevention', 'Prevention policy', 'Moderate or higher', 2],
  ['quarantine_enabled', 'Quarantine', 'Prevention policy', 'Enabled', 1],
  ['script_based_execution', 'Script-based execution monitoring', 'Prevention policy', 'Enabled', 1],
];

/**
 * The JSON of every (signal, verdict) pair is made once and reused: assessments are the bulk of a
 * large poll's bytes, and concatenating cached fragments is much cheaper than serialising objects.
 */
const fragments = new Map<string, string>();
function fragment(spec: SignalSpec, meets: string): string {
  const key = `${spec[0]}|${meets}`;
  let json = fragments.get(key);
  if (json === undefined) {
    json = JSON.stringify({ signal_id: spec[0], signal_name: spec[1], group_name: spec[2], criteria: spec[3], meets_criteria: meets });
    fragments.set(key, json);
  }
  return json;
}

function signals(h: HostTraits, specs: readonly SignalSpec[], quality: number): { json: string; score: number } {
  let got = 0;
  let total = 0;
  const items: string[] = [];
  for (const spec of specs) {
    const x = h.r();
    const meets = x < 0.03 ? 'unknown' : x < 0.03 + quality * 0.97 ? 'yes' : 'no';
    total += spec[4];
    if (meets === 'yes') got += spec[4];
    items.push(fragment(spec, meets));
  }
  return { json: `[${items.join(',')}]`, score: Math.max(1, Math.round((got / total) * 100)) };
}

/** The JSON text of the host's assessment, or undefined when ZTA has not assessed it yet. */
export function assessmentJson(t: SimTenant, h: HostTraits): string | undefined {
  if (!h.assessed) return undefined;
  const os = signals(h, OS_SIGNALS[h.platform], h.hygiene);
  // Reduced functionality mode leaves the sensor unable to enforce its policy.
  const sensor = signals(h, SENSOR_SIGNALS, h.reducedFunctionality ? h.hygiene * 0.3 : Math.min(1, h.hygiene + 0.15));
  const assessment = { sensor_config: sensor.score, os: os.score, overall: Math.round((os.score + sensor.score) / 2), version: '3.6.1' };
  const rest = {
    modified_time: iso(t.anchorMs - h.lastSeenAgoMs - Math.round(h.r() * 3_600_000)),
    event_platform: EVENT_PLATFORM[h.platform],
    product_type_desc: h.product,
    sensor_file_status: 'deployed',
    system_serial_number: h.serial,
  };
  const head = `{"aid":"${h.deviceId}","cid":"${t.cid}","assessment":${JSON.stringify(assessment)}`;
  return `${head},"assessment_items":{"os_signals":${os.json},"sensor_signals":${sensor.json}},${JSON.stringify(rest).slice(1)}`;
}

/** The host's assessment as an object (tests), or undefined when not assessed yet. */
export function assessmentRecord(t: SimTenant, h: HostTraits): Record<string, unknown> | undefined {
  const json = assessmentJson(t, h);
  return json === undefined ? undefined : (JSON.parse(json) as Record<string, unknown>);
}
