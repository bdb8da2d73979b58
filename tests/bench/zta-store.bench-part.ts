/**
 * The ZTA store over time (issue 11.5): 7 days of 10-minute cycles for 100,000 Defender hosts, 2 %
 * of the hosts changing score each cycle and every host's last-seen time moving, written through
 * the app poller's path (staged in batches of 2,000, committed at once). Prints the write time of
 * one cycle (median, 95th percentile, worst; target < 1 s), the file at the end (target < 500 MB),
 * and the history queries over that store.
 */
import { mkdtempSync, rmSync, statSync, existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { HostRecord, ScoredHost } from '../../shared/model/edr';
import { compileRiskConfig, defaultRiskConfig, scoreHost } from '../../shared/risk';
import { EdrDb } from '../../electron/edr/store/edr-db';


const RISK = ['Low', 'Medium', 'High'] as const;
const EXPOSURE = ['Low', 'Medium', 'High'] as const;

/**
 * A string as a connector's record holds it: in one piece, as JSON.parse made it from the vendor's
 * answer. (A template literal would make a string of pieces that V8 joins at its first read, a cost
 * real records do not have.)
 */
const wire = (...parts: Array<string | number>): string => parts.join('');

/**
 * Defender host `i` as the connector hands it out (its record with its CVE list), in its `variant`
 * (a host that changes moves to its next variant: another risk level and exposure), scored by the
 * real scorer as the app poller does (contributions are the scorer's shared objects).
 */
export function benchHost(i: number, variant: number, at: string): ScoredHost {
  const cves = Array.from({ length: 4 + (i % 9) }, (_, k) => {
    const cvss = Math.round((3 + ((i * 7 + k * 13) % 70) / 10) * 10) / 10;
    return { cveId: wire('CVE-2025-', 10_000 + ((i * 31 + k * 17) % 40_000)), cvss, severity: cvss >= 9 ? 'Critical' : cvss >= 7 ? 'High' : cvss >= 4 ? 'Medium' : 'Low' } as const;
  });
  const host: HostRecord = {
    vendor: 'defender',
    tenantId: 'bench',
    hostId: wire(((i * 2654435761) >>> 0).toString(16).padStart(8, '0'), i.toString(16).padStart(32, '0')),
    hostname: wire('ws-', i, '.corp.example'),
    customerId: wire('cust-', i % 7),
    platform: i % 5 === 0 ? 'Mac' : i % 11 === 0 ? 'Linux' : 'Windows',
    osVersion: '10.0.22631',
    lastSeen: at,
    defender: {
      riskScore: RISK[(i + variant) % 3]!,
      exposureLevel: EXPOSURE[((i >> 2) + variant * 2) % 3]!,
      healthStatus: 'Active',
      avStatus: 'Updated',
      onboardingStatus: 'Onboarded',
      lastSeen: at,
      criticalCveCount: cves.filter((c) => c.cvss >= 9).length,
      cveCount: cves.length,
      maxCvss: Math.max(...cves.map((c) => c.cvss)),
      vulnerabilities: cves,
    },
  };
  return { host, ...scoreHost(host, CONFIG, Date.parse(at)), scoredAt: at };
}

const CONFIG = compileRiskConfig(defaultRiskConfig);

export interface ZtaStoreBench {
  hosts: number;
  cycles: number;
  changedPerCycle: number;
  /** Per cycle: staging its batches (during the poll), the commit (one transaction), and both. */
  stageMs: Stats;
  commitMs: Stats;
  cycleMs: Stats;
  totalMs: number;
  fileMb: number;
  queries: { snapshotMs: number; historyMs: number; trendMs: number; changesMs: number };
}

interface Stats {
  median: number;
  p95: number;
  max: number;
}

const stats = (xs: number[]): Stats => {
  const s = [...xs].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)]!, p95: s[Math.min(s.length - 1, Math.floor(s.length * 0.95))]!, max: s[s.length - 1]! };
};

export async function benchZtaStore(hosts: number, days: number, changeRate: number, onCycle?: (i: number, stageMs: number, commitMs: number) => void): Promise<ZtaStoreBench> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-bench-zta-'));
  const file = path.join(dir, 'edr.db');
  try {
    const store = new EdrDb(file);
    const cycles = Math.round((days * 24 * 60) / 10);
    const variants = new Uint8Array(hosts);
    const changed = Math.round(hosts * changeRate);
    const start = Date.UTC(2026, 10, 1);
    const stage: number[] = [];
    const commit: number[] = [];
    const t0 = performance.now();
    for (let c = 0; c < cycles; c++) {
      const at = new Date(start + c * 600_000);
      const iso = at.toISOString();
      // 2 % of the hosts move to another variant, a different slice each cycle (the first cycle stores all).
      if (c > 0) {
        for (let k = 0; k < changed; k++) {
          const i = (c * changed + k) % hosts;
          variants[i] = (variants[i]! + 1) % 3;
        }
      }
      const id = store.beginCycle('bench', 'defender', 'bench', at);
      let staging = 0;
      for (let i = 0; i < hosts; i += 2_000) {
        // The connector's batch (made and scored outside the timing), then staged as the poller does.
        const batch: ScoredHost[] = [];
        for (let j = i; j < Math.min(hosts, i + 2_000); j++) batch.push(benchHost(j, variants[j]!, iso));
        const t = performance.now();
        store.stageScores(id, 'bench', batch);
        staging += performance.now() - t;
      }
      const t = performance.now();
      store.commitCycle(id, new Date(at.getTime() + 30_000));
      const committing = performance.now() - t;
      stage.push(staging);
      commit.push(committing);
      onCycle?.(c, staging, committing);
      // The app's poller waits for its vendor between batches and 10 minutes between cycles: what
      // the store does off its thread (the checkpoint's worker) gets its answers meanwhile.
      await new Promise((resolve) => setImmediate(resolve));
    }
    const totalMs = performance.now() - t0;
    const q = (fn: () => unknown) => {
      const s = performance.now();
      fn();
      return performance.now() - s;
    };
    const latest = store.views.latestCycles()[0]!;
    const queries = {
      snapshotMs: q(() => {
        const cols = Object.fromEntries(['connector', 'hostId', 'hostname', 'customer', 'platform', 'score', 'band', 'lastSeen', 'osAssessment', 'sensorAssessment', 'overallAssessment', 'sensorRunning', 'reducedFunctionality', 'riskLevel', 'exposure', 'health', 'avStatus', 'onboarding', 'criticalCves', 'cveCount', 'maxCvss', 'cvss'].map((k) => [k, []]));
        store.views.appendRows(cols as never, latest.cycleId, 0, () => 0);
      }),
      historyMs: q(() => store.views.scoreHistory('bench', benchHost(7, 0, "").host.hostId, 200)),
      trendMs: q(() => store.views.trend({ connectors: new Set(['bench']) }, 100)),
      changesMs: q(() => store.views.changes('bench', latest.cycleId)),
    };
    store.close();
    const size = (f: string) => (existsSync(f) ? statSync(f).size : 0);
    // The first cycle stores every host at once; a cycle's cost is the steady state after it.
    const steady = (xs: number[]) => (xs.length > 1 ? xs.slice(1) : xs);
    return {
      hosts,
      cycles,
      changedPerCycle: changed,
      stageMs: stats(steady(stage)),
      commitMs: stats(steady(commit)),
      cycleMs: stats(steady(stage.map((x, i) => x + commit[i]!))),
      totalMs,
      fileMb: (size(file) + size(`${file}-wal`)) / 1024 / 1024,
      queries,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
