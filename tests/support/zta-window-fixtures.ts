/**
 * What the ZTA windows' tests share (issue 25.3): a snapshot with what makes orders and searches
 * differ (two vendors, hostnames alike across connectors and in mixed case, LIKE's wildcards in
 * names, hosts not assessed, unknown enums and assessments, hosts never seen, a host that left),
 * written through the store's own cycles; and the renderer's in-memory answer on the snapshot the
 * store gives (`makeRowFilter` and `rowsInOrder`, the table's `sortOrder`).
 */
import type { HostRecord, RiskBand, ScoredHost } from '../../shared/model/edr';
import { BANDS, PLATFORMS, emptyBandCounts, makeRowFilter, rowsInOrder, type ZtaConnector, type ZtaFilter, type ZtaSnapshot } from '../../shared/model/zta';
import type { HostCounts, HostWindowQuery, ZtaSort } from '../../shared/model/zta-window';
import { ENUMS } from '../../shared/model/zta';
import type { EdrStore } from '../../electron/edr/store/edr-store';
import { ztaSnapshot } from '../../electron/edr/zta-snapshot';
import { hostCountsOf } from '../../electron/edr/store/edr-window-sql';
import { sortOrder, ztaViewOf } from '../../renderer/features/zta/zta-index';
import { customerNames } from '../../renderer/features/zta/customer-names';
import { at } from './edr-backends';

const bandOf = (score: number): RiskBand => (score > 80 ? 'High Risk' : score > 60 ? 'Suspicious' : score > 40 ? 'Moderate Risk' : score > 20 ? 'Low Risk' : 'Trustworthy');
const pick = <T>(options: readonly T[], i: number): T | null => (i % (options.length + 1) === options.length ? null : options[i % (options.length + 1)]!);

const NAMES = ['web-%d.corp.example', 'WS-Finance-%d', 'db_%d%%lab', 'shared-%d', 'Kiosk-%d.Branch'];

/** Host `i` of a connector (deterministic; `salt` moves some scores between cycles). */
export function windowHost(vendor: 'falcon' | 'defender', tenantId: string, i: number, salt = 0): ScoredHost {
  const notAssessed = i % 11 === 5;
  // Two decimals, ties on purpose (every 7th host has its neighbour's score).
  const base = (k: number) => Math.round(((k * 37 + salt * 13) % 9_000) / 0.9) / 100;
  const score = notAssessed ? 0 : base(i % 7 === 0 && i > 0 ? i - 1 : i);
  const hostname = NAMES[i % NAMES.length]!.replace('%d', String(i % 40)).replace('%%', '%');
  const lastSeen = i % 9 === 4 ? null : new Date(Date.UTC(2026, 10, 20, i % 24, (i * 7) % 60, i % 13)).toISOString();
  const host: HostRecord = {
    vendor,
    tenantId,
    hostId: `${vendor === 'falcon' ? 'F' : 'm'}${(i * 7919).toString(16).padStart(6, '0')}`,
    hostname,
    customerId: ['cust-a', 'cust-b', 'Cust-Upper', `tenant-${tenantId}`][i % 4]!,
    platform: PLATFORMS[i % PLATFORMS.length]!,
    osVersion: '10.0',
    lastSeen,
  };
  if (vendor === 'defender') {
    host.defender = {
      riskScore: pick(ENUMS.riskLevel, i),
      exposureLevel: pick(ENUMS.exposure, i + 1),
      healthStatus: pick(ENUMS.health, i + 2),
      avStatus: pick(ENUMS.avStatus, i + 3),
      onboardingStatus: pick(ENUMS.onboarding, i),
      lastSeen,
      criticalCveCount: i % 4,
      cveCount: (i * 3) % 17,
      maxCvss: i % 5 === 0 ? null : 9.8,
    };
  } else {
    host.falcon = {
      assessment: i % 6 === 1 ? null : { os: (i * 13) % 100 + (i % 2 ? 0.5 : 0), sensor_config: (i * 29) % 101, overall: (i * 17) % 100, os_signals: [], sensor_signals: [] },
      sensorRunning: i % 3 !== 0,
      agentVersion: '7.1',
      lastSeen,
      reducedFunctionalityMode: i % 5 === 2,
    };
  }
  return {
    host,
    score,
    band: notAssessed ? 'Not assessed' : bandOf(score),
    contributions: [],
    scoredAt: '2026-11-22T03:00:00.000Z',
  };
}

export interface WindowConnector {
  connectorId: string;
  vendor: 'falcon' | 'defender';
  tenantId: string;
}

/** Cycles of three connectors; the last completed one of each is the snapshot (a later failed one and hosts that left are not). */
export async function writeWindowSnapshot(s: EdrStore, sizes: readonly [number, number, number] = [150, 90, 40]): Promise<WindowConnector[]> {
  const connectors: WindowConnector[] = [
    { connectorId: 'conn-a', vendor: 'defender', tenantId: 't1' },
    { connectorId: 'conn-b', vendor: 'falcon', tenantId: 't2' },
    { connectorId: 'conn-c', vendor: 'defender', tenantId: 't3' },
  ];
  let minute = 0;
  const run = async (c: WindowConnector, hosts: ScoredHost[]) => {
    const id = await s.beginCycle(c.connectorId, c.vendor, c.tenantId, at(minute));
    for (let i = 0; i < hosts.length; i += 37) await s.stageScores(id, c.connectorId, hosts.slice(i, i + 37));
    await s.commitCycle(id, at(minute + 1));
    minute += 2;
  };
  for (const [k, c] of connectors.entries()) {
    const n = sizes[k]!;
    const all = Array.from({ length: n }, (_, i) => windowHost(c.vendor, c.tenantId, i));
    await run(c, all);
    // The second cycle: some scores move, the last 8 hosts left (they stay stored, not in the snapshot).
    await run(c, Array.from({ length: n - 8 }, (_, i) => windowHost(c.vendor, c.tenantId, i, i % 4 === 0 ? 1 : 0)));
  }
  const failed = await s.beginCycle('conn-a', 'defender', 't1', at(minute));
  await s.stageScores(failed, 'conn-a', [windowHost('defender', 't1', 999)]);
  await s.finishCycle(failed, 'failed', { hosts: 0, error: 'refused', at: at(minute + 1) });
  return connectors;
}

/** The renderer's snapshot of the store (connectors in ID order, so its row order is the store's tie order). */
export async function rendererSnapshot(s: EdrStore): Promise<ZtaSnapshot> {
  const latest = (await s.latestCycles()).sort((a, b) => (a.connectorId < b.connectorId ? -1 : 1));
  const connectors: ZtaConnector[] = [];
  for (const l of latest) {
    const c = (await s.cycle(l.cycleId))!;
    connectors.push({ connectorId: l.connectorId, name: `Conn ${l.connectorId}`, vendor: c.vendor, tenantId: c.tenantId, cycleId: l.cycleId, asOf: l.finishedAt, kind: l.kind, hosts: l.hosts, health: 'online', lastAttemptAt: null, lastError: null });
  }
  return ztaSnapshot(s, connectors);
}

/** The table's customer order (by name where known, else by ID), as customer IDs: what the store's `customerOrder` takes. */
export function rendererCustomerOrder(s: ZtaSnapshot): string[] {
  const known = customerNames(s);
  return s.customers
    .map((c, k) => [known[k] ?? c, k] as const)
    .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]))
    .map(([, k]) => s.customers[k]!);
}

/** The renderer's rows for a window's question, as `connectorId/hostId` (all of them: the caller slices). */
export function rendererRows(s: ZtaSnapshot, filter: ZtaFilter, sort: ZtaSort | undefined): string[] {
  const keep = makeRowFilter(s, filter);
  const order = sort === undefined ? rowsInOrder(s, filter) : [...sortOrder(ztaViewOf(s), sort)].filter(keep);
  return order.map((i) => `${s.connectors[s.rows.connector[i]!]!.connectorId}/${s.rows.hostId[i]!}`);
}

/** The renderer's counts for a filter, by the same grouping as the store's. */
export function rendererCounts(s: ZtaSnapshot, filter: ZtaFilter): HostCounts {
  const keep = makeRowFilter(s, filter);
  const groups = new Map<string, { customer: string; platform: string; band: string; n: number }>();
  for (let i = 0; i < s.rows.hostId.length; i++) {
    if (!keep(i)) continue;
    const customer = s.customers[s.rows.customer[i]!]!;
    const platform = PLATFORMS[s.rows.platform[i]!]!;
    const band = BANDS[s.rows.band[i]!]!;
    const key = `${customer}\n${platform}\n${band}`;
    const g = groups.get(key) ?? { customer, platform, band, n: 0 };
    g.n += 1;
    groups.set(key, g);
  }
  return hostCountsOf(groups.values());
}

/** Every window of a question, page by page, until the total. */
export async function pageThrough(s: EdrStore, q: Omit<HostWindowQuery, 'offset' | 'limit'>, limit: number): Promise<{ keys: string[]; totals: number[] }> {
  const keys: string[] = [];
  const totals: number[] = [];
  for (let offset = 0; ; offset += limit) {
    const w = await s.hostWindow({ ...q, offset, limit });
    totals.push(w.total);
    keys.push(...w.rows.map((r) => `${r.connectorId}/${r.hostId}`));
    if (w.rows.length < limit || offset > 100_000) return { keys, totals };
  }
}

export const bandTotal = (c: HostCounts) => Object.values(c.bands).reduce((a, b) => a + b, 0);
export { emptyBandCounts };
