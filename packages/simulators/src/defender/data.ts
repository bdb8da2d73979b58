/**
 * Deterministic, lazy Defender data: machine i of a tenant, its software and its CVEs are derived
 * from (seed, i) on demand, so 100 000 hosts cost no memory beyond one page being answered.
 * Field names and enum values follow the public Machine, Vulnerability and AssetVulnerability
 * (SoftwareVulnerabilitiesByMachine) entities.
 */

/** 32-bit hash combine (murmur3 finalizer). */
export function mix(a: number, b: number): number {
  let h = Math.imul((a ^ 0x9e3779b9) >>> 0, 0x85ebca6b) ^ b;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

const HEX2 = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
const hex8 = (n: number) => HEX2[(n >>> 24) & 255]! + HEX2[(n >>> 16) & 255]! + HEX2[(n >>> 8) & 255]! + HEX2[n & 255]!;

/** mulberry32: small, fast, good enough for test data. */
export class Rng {
  private s: number;
  constructor(seed: number, index: number, salt: number) {
    this.s = mix(mix(mix(0x2545f491, seed >>> 0), index >>> 0), salt);
  }
  u32(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return (t ^ (t >>> 14)) >>> 0;
  }
  next(): number {
    return this.u32() / 4_294_967_296;
  }
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  /** Picks by weight: [[value, weight], ...]. */
  weighted<T>(pairs: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (let k = 0; k < pairs.length; k++) total += pairs[k]![1];
    let x = this.next() * total;
    for (let k = 0; k < pairs.length; k++) if ((x -= pairs[k]![1]) < 0) return pairs[k]![0];
    return pairs[pairs.length - 1]![0];
  }
  hex(chars: number): string {
    let out = '';
    while (out.length < chars) out += hex8(this.u32());
    return out.length === chars ? out : out.slice(0, chars);
  }
}

const DAY = 86_400_000;
const idMask = (seed: number) => mix(seed, 0x5eed1d);

/** 40 hex characters: 32 derived from (seed, i), then i masked, so the id maps back to i without a table. */
export function machineId(seed: number, i: number): string {
  return new Rng(seed, i, 1).hex(32) + hex8(i ^ idMask(seed));
}

export function machineIndex(seed: number, hosts: number, id: string): number | undefined {
  if (!/^[0-9a-f]{40}$/.test(id)) return undefined;
  const i = (Number.parseInt(id.slice(32), 16) ^ idMask(seed)) >>> 0;
  return i < hosts && machineId(seed, i) === id ? i : undefined;
}

/** Defender's ISO form with 7 fractional digits. */
const iso7 = (ms: number) => `${new Date(ms).toISOString().slice(0, 23)}0000Z`;
/** The export's "2020-12-30 14:17:26" form. */
const tvmTime = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');

interface OsChoice {
  platform: string;
  prefix: string;
  version: string;
  osVersion: string;
  osBuild: number | null;
}
const OS: readonly (readonly [OsChoice, number])[] = [
  [{ platform: 'Windows10', prefix: 'ws', version: '22H2', osVersion: '10.0.19045.4046', osBuild: 19045 }, 40],
  [{ platform: 'Windows11', prefix: 'ws', version: '23H2', osVersion: '10.0.22631.3155', osBuild: 22631 }, 25],
  [{ platform: 'WindowsServer2019', prefix: 'srv', version: '1809', osVersion: '10.0.17763.5458', osBuild: 17763 }, 8],
  [{ platform: 'WindowsServer2022', prefix: 'srv', version: '21H2', osVersion: '10.0.20348.2322', osBuild: 20348 }, 7],
  [{ platform: 'macOS', prefix: 'mac', version: '14.4', osVersion: '14.4', osBuild: null }, 8],
  [{ platform: 'Linux', prefix: 'lnx', version: 'Ubuntu 22.04', osVersion: '22.04', osBuild: null }, 7],
  [{ platform: 'iOS', prefix: 'ios', version: '17.4', osVersion: '17.4', osBuild: null }, 2],
  [{ platform: 'Android', prefix: 'and', version: '14', osVersion: '14', osBuild: null }, 3],
];
const ONBOARDING = [['Onboarded', 93], ['CanBeOnboarded', 4], ['Unsupported', 2], ['InsufficientInfo', 1]] as const;
/** Inactivity buckets (days from, span): < 1 day, 1–3, 4–7, 8–14, more than 14. */
const INACTIVITY: readonly (readonly [readonly [number, number], number])[] = [[[0, 0], 70], [[1, 2], 10], [[4, 3], 7], [[8, 6], 5], [[15, 45], 8]];
const HEALTH = [['Active', 90], ['ImpairedCommunication', 4], ['NoSensorData', 3], ['NoSensorDataImpairedCommunication', 1], ['Unknown', 2]] as const;
const DEVICE_VALUE = [['Normal', 85], ['High', 10], ['Low', 5]] as const;
const RISK = [['None', 20], ['Informational', 10], ['Low', 35], ['Medium', 20], ['High', 15]] as const;
const EXPOSURE = [['None', 5], ['Low', 45], ['Medium', 35], ['High', 15]] as const;
const AV = [['Updated', 75], ['NotUpdated', 10], ['Disabled', 5], ['NotReporting', 5], ['NotSupported', 3], ['Unknown', 2]] as const;
const RBAC = ['Unassigned', 'Servers', 'Workstations', 'Finance', 'Engineering'] as const;
const TAGS = ['Finance', 'VIP', 'Kiosk', 'Lab', 'Remote'] as const;

export interface GeneratedMachine {
  onboarded: boolean;
  lastSeenMs: number;
  firstSeenMs: number;
  record: Record<string, unknown>;
}

function drifted(risk: string, seed: number, i: number, period: number | undefined): string {
  if (!period) return risk;
  const h = Math.imul(seed ^ Math.imul(i + 1, 0x85ebca77) ^ Math.imul(period + 1, 0xc2b2ae3d), 0x27d4eb2f) >>> 0;
  if (h % 1000 >= 40) return risk;
  const at = RISK_STEPS.indexOf(risk as (typeof RISK_STEPS)[number]);
  if (at < 0) return risk;
  const dir = at === 0 ? 1 : at === RISK_STEPS.length - 1 ? -1 : (h >>> 12) & 1 ? 1 : -1;
  return RISK_STEPS[at + dir]!;
}

/** A risk score a step up or down (the drift of a period). */
const RISK_STEPS = ['None', 'Informational', 'Low', 'Medium', 'High'] as const;

/**
 * Machine i of a tenant: the Machine entity as GET /api/machines lists it; `names` replaces
 * generated host names. With a drift `period` (> 0), about 4 % of the onboarded machines have their
 * risk score a step up or down for that period (a living fleet, issue 22.12).
 */
export function machineAt(seed: number, i: number, anchorMs: number, names?: Readonly<Record<number, string>>, period?: number): GeneratedMachine {
  const r = new Rng(seed, i, 2);
  const os = r.weighted(OS);
  const id = machineId(seed, i);
  const onboarding = r.weighted(ONBOARDING);
  const onboarded = onboarding === 'Onboarded';
  const [from, span] = r.weighted(INACTIVITY);
  const inactiveDays = from + r.next() * span;
  const lastSeen = anchorMs - Math.round(inactiveDays * DAY + r.next() * 6 * 3_600_000);
  const firstSeen = lastSeen - Math.round((30 + r.int(400)) * DAY);
  const health = inactiveDays > 7 ? 'Inactive' : r.weighted(HEALTH);
  const rbac = r.int(RBAC.length);
  const aad = r.next() < 0.6;
  const generated = r.next() < 0.005 ? null : `${os.prefix}-${String(i).padStart(5, '0')}.corp${seed % 100}.contoso.com`;
  const hostname = names?.[i] ?? generated;
  const lastIp = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
  const record: Record<string, unknown> = {
    id,
    computerDnsName: hostname,
    firstSeen: iso7(firstSeen),
    lastSeen: iso7(lastSeen),
    osPlatform: os.platform,
    osVersion: os.osVersion,
    osProcessor: 'x64',
    version: os.version,
    lastIpAddress: lastIp,
    lastExternalIpAddress: `203.0.113.${1 + r.int(254)}`,
    agentVersion: os.platform.startsWith('Windows') ? `10.8760.${os.osBuild ?? 0}.${1000 + r.int(3000)}` : `101.24022.${r.int(10)}`,
    osBuild: os.osBuild,
    healthStatus: onboarded ? health : 'Unknown',
    deviceValue: r.weighted(DEVICE_VALUE),
    rbacGroupId: 140 + rbac,
    rbacGroupName: RBAC[rbac],
    riskScore: onboarded ? drifted(r.weighted(RISK), seed, i, period) : 'None',
    exposureLevel: onboarded ? r.weighted(EXPOSURE) : 'None',
    isAadJoined: aad,
    aadDeviceId: aad ? `${r.hex(8)}-${r.hex(4)}-4${r.hex(3)}-a${r.hex(3)}-${r.hex(12)}` : null,
    machineTags: r.next() < 0.2 ? [r.pick(TAGS)] : [],
    defenderAvStatus: onboarded ? r.weighted(AV) : 'Unknown',
    onboardingStatus: onboarding,
    osArchitecture: '64-bit',
    managedBy: 'MicrosoftDefenderForEndpoint',
    ipAddresses: [{ ipAddress: lastIp, macAddress: r.hex(12).toUpperCase(), type: 'Ethernet', operationalStatus: 'Up' }],
  };
  return { onboarded, lastSeenMs: lastSeen, firstSeenMs: firstSeen, record };
}

// ---- CVEs and software ----

export interface Cve {
  id: string;
  cvss: number;
  severity: 'Low' | 'Medium' | 'High' | 'Critical';
  publishedOn: string;
  exploitVerified: boolean;
  publicExploit: boolean;
}

const CATALOGUE_SIZE = 240;
const catalogues = new Map<number, Cve[]>();

export const severityOf = (cvss: number): Cve['severity'] => (cvss >= 9 ? 'Critical' : cvss >= 7 ? 'High' : cvss >= 4 ? 'Medium' : 'Low');

/** The CVE catalogue of a seed (240 entries, 12 % critical), cached: it is small. */
export function cveCatalogue(seed: number): Cve[] {
  let list = catalogues.get(seed);
  if (!list) {
    list = Array.from({ length: CATALOGUE_SIZE }, (_, k) => {
      const r = new Rng(seed, k, 3);
      const band = r.weighted([[[9, 10], 12], [[7, 8.9], 30], [[4, 6.9], 40], [[0.1, 3.9], 18]] as const);
      const cvss = Math.round((band[0] + r.next() * (band[1] - band[0])) * 10) / 10;
      const year = 2019 + (k % 6);
      const publicExploit = r.next() < 0.3;
      return { id: `CVE-${year}-${20000 + k * 7 + r.int(7)}`, cvss, severity: severityOf(cvss), publishedOn: `${year}-${String(1 + r.int(12)).padStart(2, '0')}-15T00:00:00Z`, publicExploit, exploitVerified: publicExploit && r.next() < 0.5 };
    });
    catalogues.set(seed, list);
  }
  return list;
}

const SOFTWARE = [
  ['google', 'chrome'], ['microsoft', 'edge'], ['mozilla', 'firefox'], ['oracle', 'jre'], ['adobe', 'acrobat_reader_dc'],
  ['openssl', 'openssl'], ['igor_pavlov', '7-zip'], ['zoom', 'zoom'], ['microsoft', 'office'], ['microsoft', '.net_framework'],
  ['python', 'python'], ['nodejs', 'node.js'], ['vmware', 'tools'], ['notepad++', 'notepad++'], ['videolan', 'vlc_media_player'],
  ['apache', 'log4j'], ['git', 'git'], ['putty', 'putty'], ['wireshark', 'wireshark'], ['microsoft', 'teams'],
] as const;

export interface Software {
  vendor: string;
  name: string;
  version: string;
  /** Indices into the CVE catalogue; neighbouring products share some (a CVE can sit in two products). */
  cves: number[];
}

/** Vulnerable software of machine i (empty when the device is not onboarded). */
export function softwareAt(seed: number, i: number, onboarded: boolean): Software[] {
  if (!onboarded) return [];
  const r = new Rng(seed, i, 4);
  const count = 1 + r.int(6);
  const start = r.int(SOFTWARE.length);
  const out: Software[] = [];
  for (let j = 0; j < count; j++) {
    const s = (start + j * 3) % SOFTWARE.length;
    const [vendor, name] = SOFTWARE[s]!;
    const n = r.weighted([[0, 45], [1, 25], [2, 17], [3, 13]] as const);
    const cves = new Set<number>();
    // Product s draws from catalogue slots [s*12, s*12+16): the last four overlap product s+1.
    while (cves.size < n) cves.add((s * 12 + r.int(16)) % CATALOGUE_SIZE);
    out.push({ vendor, name, version: `${1 + r.int(120)}.${r.int(10)}.${r.int(5000)}`, cves: [...cves] });
  }
  return out;
}

/** Unique CVEs of machine i (what GET /api/machines/{id}/vulnerabilities lists). */
export function machineCves(seed: number, i: number, onboarded: boolean): Cve[] {
  const catalogue = cveCatalogue(seed);
  const ids = new Set<number>();
  for (const sw of softwareAt(seed, i, onboarded)) for (const k of sw.cves) ids.add(k);
  return [...ids].map((k) => catalogue[k]!);
}

/** Rows of machine i in the bulk export: one per (software, CVE), a null-CVE row for clean software. */
export function bulkRowsOf(seed: number, i: number, anchorMs: number, names?: Readonly<Record<number, string>>): Record<string, unknown>[] {
  const m = machineAt(seed, i, anchorMs, names);
  const rec = m.record;
  const catalogue = cveCatalogue(seed);
  const rows: Record<string, unknown>[] = [];
  const seen = tvmTime(m.lastSeenMs);
  const first = tvmTime(m.firstSeenMs);
  for (const sw of softwareAt(seed, i, m.onboarded)) {
    const cves = sw.cves.length ? sw.cves.map((k) => catalogue[k]!) : [null];
    for (const cve of cves) {
      rows.push({
        id: `${rec.id as string}_${sw.vendor}_${sw.name}_${sw.version}_${cve?.id ?? ''}`,
        deviceId: rec.id,
        rbacGroupName: rec.rbacGroupName,
        deviceName: rec.computerDnsName,
        osPlatform: rec.osPlatform,
        osVersion: rec.osVersion,
        osArchitecture: 'x64',
        softwareVendor: sw.vendor,
        softwareName: sw.name,
        softwareVersion: sw.version,
        cveId: cve?.id ?? null,
        cvssScore: cve?.cvss ?? null,
        vulnerabilitySeverityLevel: cve?.severity ?? null,
        recommendedSecurityUpdate: null,
        recommendedSecurityUpdateId: null,
        recommendedSecurityUpdateUrl: null,
        diskPaths: [],
        registryPaths: [],
        lastSeenTimestamp: seen,
        firstSeenTimestamp: first,
        exploitabilityLevel: cve ? (cve.exploitVerified ? 'ExploitIsVerified' : cve.publicExploit ? 'ExploitIsPublic' : 'NoExploit') : 'NoExploit',
        recommendationReference: `va-_-${sw.vendor}-_-${sw.name}`,
        securityUpdateAvailable: cve !== null,
      });
    }
  }
  return rows;
}

/** The Vulnerability entity of GET /api/machines/{id}/vulnerabilities. */
export function vulnerabilityEntity(cve: Cve): Record<string, unknown> {
  return {
    id: cve.id,
    name: cve.id,
    description: `Simulated vulnerability ${cve.id}.`,
    severity: cve.severity,
    cvssV3: cve.cvss,
    cvssVector: null,
    exposedMachines: 1,
    publishedOn: cve.publishedOn,
    updatedOn: cve.publishedOn,
    publicExploit: cve.publicExploit,
    exploitVerified: cve.exploitVerified,
    exploitInKit: false,
    exploitTypes: [],
    exploitUris: [],
    cveSupportability: 'Supported',
  };
}
