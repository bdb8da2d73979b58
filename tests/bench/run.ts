/**
 * `npm run bench`: performance numbers measured side by side in one run. Each part is bounded in
 * size and time and prints one line; nothing here is a pass/fail test.
 */
import os from 'node:os';
import { benchDefender, benchDefenderCycle } from './defender.bench-part';
import { benchFalconCycle } from './falcon.bench-part';
import { pollerBaselineRssMb } from './poller-process';
import { appPollerBaselineRssMb, benchDefenderAppCycle, benchFalconAppCycle, type AppCycleBench } from './app-poller.bench-part';
import { benchScoring } from './scoring.bench-part';
import { benchStore } from './store.bench-part';
import { benchOrgHierarchy } from './org-hierarchy.bench-part';
import { benchZtaStore } from './zta-store.bench-part';
import { benchEdrPg } from './edr-pg.bench-part';
import { benchZtaWindowsPg, benchZtaWindowsSqlite, type Timing, type WindowsBench } from './zta-windows.bench-part';
import { benchZtaDashboard, sqliteDashboard, type DashboardBench, type MainCalls } from './zta-dashboard.bench-part';
import { teamPgDashboard } from './zta-table-pg.bench-part';
import { benchZtaReport, REPORT_BEFORE_COMMIT } from './zta-report.bench-part';
import { benchZtaExport, type ExportRun } from './zta-export.bench-part';
import { benchBulkOnboarding, benchCancel, benchPaging } from './inventory.bench-part';
import { benchDevicesTable } from './devices-table.bench-part';
import { benchInventoryReplace } from './inventory-replace.bench-part';
import { benchAlarmStream } from './alarms.bench-part';
import { benchAlarmFleet, benchAlarmPgIngest } from './alarms-fleet.bench-part';
import { benchAlarmStall } from './alarm-stall.bench-part';
import { benchFleetWorkers } from './fleet-workers.bench-part';
import { benchOverview } from './overview.bench-part';
import { benchAlarmPage } from './alarms-page.bench-part';
import { benchAlarmWindowPg, benchAlarmWindowSqlite, Deadline, type AlarmWindowBench } from './alarms-window.bench-part';
import { benchConnectorImport } from './connector-import.bench-part';
import type { MainTask, MainThreadReport } from './chromium-trace';
import type { StallReport } from './loop-stall';

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

/** A window bench's main thread: the longest task (wall and CPU time, what it did), the long ones, the frame gaps, the Long Tasks API's view. */
function describeMainThread(m: MainThreadReport, frameGapMs: number, api: { count: number; longestMs: number }): string {
  const task = (t: MainTask) => `${fmt(t.ms, 1)} ms (CPU ${fmt(t.cpuMs, 1)} ms; ${t.top.map((x) => `${x.name} ${fmt(x.ms, 1)}`).join(', ')})`;
  const long = m.long.length ? `: ${m.long.map((t) => `${fmt(t.ms)}/${fmt(t.cpuMs)} CPU`).join(', ')}` : '';
  const gap = m.frameGap ? ` (in the trace ${fmt(m.frameGap.ms, 1)} ms, main thread busy ${fmt(m.frameGap.busyMs, 1)} ms of it, CPU ${fmt(m.frameGap.busyCpuMs, 1)} ms)` : '';
  return `longest main-thread task ${m.longest ? task(m.longest) : 'none'} (target < 50 ms; ${fmt(m.tasks)} tasks, ${m.long.length} of them ≥ 50 ms${long}; Chromium trace); longest gap between frames ${fmt(frameGapMs, 1)} ms${gap}; Long Tasks API ≥ 50 ms: ${api.count} (longest ${fmt(api.longestMs)} ms); ${fmt(m.frames)} frames, main-thread CPU ${fmt(m.cpuPerFrameMs, 1)} ms a frame`;
}

/** Main's longest event-loop stall during an app poller cycle, beside the cycle's duration. */
function stallLine(vendor: string, a: AppCycleBench): string {
  const s = a.stall;
  const c = a.commitStall;
  return `${vendor} ${fmt(a.hosts)} hosts, first cycle through the app's poller ${fmt(a.ms)} ms (the commit ${fmt(a.commitMs)} ms): ${s ? describeStall(s) : 'not measured'}; during the commit ${c ? describeStall(c) : 'not measured'}`;
}

/** A stall report (loop-stall.ts): wall time, and main's own CPU time (what the worker removes; the rest is waiting for a CPU on a shared machine). */
function describeStall(s: StallReport): string {
  const cpu = s.longestCpuMs === undefined ? '' : ` (main's thread on a CPU ${fmt(s.longestStallCpuMs ?? 0, 1)} ms of it); longest time main's thread ran without turning its loop ${fmt(s.longestCpuMs, 1)} ms${s.longestCpuAtMs === undefined ? '' : `, ${fmt(s.longestCpuAtMs / 1000, 1)} s in`} (${s.cpuOver50} times ≥ 50 ms)`;
  const gc = `; longest garbage collection pause ${fmt(s.longestGcMs, 1)} ms${s.longestGcKind ? ` (${s.longestGcKind})` : ''}, ${s.gcOver50} ≥ 50 ms`;
  return `main's longest event-loop stall ${fmt(s.longestMs, 1)} ms (target < 50 ms; ${s.over50} stalls ≥ 50 ms)${cpu}${gc}`;
}

/** Main's handlers during a step: each channel's longest call (and how many). */
const mainCalls = (m: MainCalls) => m.filter((c) => c.channel.startsWith('zta.')).map((c) => `${c.channel} ${fmt(c.longestMs)}${c.n > 1 ? ` (×${c.n})` : ''}`).join(', ');

/** The ZTA dashboard's figures (zta-table, zta-table-pg), beside their targets. */
function dashboardLines(part: string, d: DashboardBench): void {
  const keys = d.keystrokes.map((k) => k.ms);
  const sorted = [...keys].sort((a, b) => a - b);
  const worstSort = Math.max(...d.sorts.map((x) => x.ms));
  if (d.notes.length) console.log(`${part}: ${d.label}: ${d.notes.join('; ')}`);
  console.log(
    `${part}: ${fmt(d.hosts)} hosts (${d.label}) in Chromium: first render (navigation to the table's first rows, read in windows from the store) ${fmt(d.firstRenderMs)} ms (target < 500 ms); JS heap after a GC ${fmt(d.heapMb)} MB (target < 100 MB; the page over windows, before any what-if)${d.heapWhatIfMb === undefined ? '' : `, ${fmt(d.heapWhatIfMb)} MB with a what-if's tenant read whole`}; main's handlers meanwhile (longest, ms): ${mainCalls(d.firstRenderMain)}`,
  );
  console.log(`${part}: sorts ${d.sorts.map((x) => `${x.column} ${fmt(x.ms)} ms [main: ${mainCalls(x.main)}]`).join(', ')} (target < 300 ms; worst ${fmt(worstSort)} ms = ${fmt(worstSort / 300, 2)}x)`);
  console.log(
    `${part}: search "${d.query}" typed key by key, then 3 backspaces: median ${fmt(sorted[Math.floor(sorted.length / 2)]!, 1)} ms, worst ${fmt(sorted[sorted.length - 1]!, 1)} ms (target < 100 ms; = ${fmt(sorted[sorted.length - 1]! / 100, 2)}x); each (ms, [main's handlers meanwhile, longest ms]): ${d.keystrokes.map((k) => `"${k.query}" ${fmt(k.ms)} [${mainCalls(k.main)}]`).join(', ')}`,
  );
  console.log(`${part}: scrolling 3 s: ${describeMainThread(d.scrollMainThread, d.scrollLongestFrameGapMs, d.scrollLongTasks)}`);
  console.log(
    `${part}: what-if, a slider step of 10 to the updated chart: ${d.whatIfSkipped ?? `${d.whatIfMs.map((x) => (Number.isNaN(x) ? 'no change seen within 5 s' : `${fmt(x)} ms`)).join(', ')} (target < 150 ms; the tenant read whole first: ${mainCalls(d.whatIfMain)} ms; windows asked meanwhile, offset and sort: ${d.whatIfMain.find((c) => c.channel === 'zta.window')?.what.join(', ') ?? 'none'})`}`,
  );
}

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const want = (name: string) => only.length === 0 || only.includes(name);
  console.log(`Northbound benchmarks — node ${process.version}, ${new Date().toISOString()}`);
  const rssTarget = 400;
  let baseline: number | undefined;
  const pollerBaseline = async () => (baseline ??= await pollerBaselineRssMb());
  let appBaseline: number | undefined;
  const appLine = async (vendor: string, a: AppCycleBench, cliPeakMb: number) => {
    appBaseline ??= await appPollerBaselineRssMb();
    console.log(
      `${vendor} memory (app poller): EdrScheduler + EdrStore + the connector runtime (createApp on a temporary data folder) in a child process, ${fmt(a.hosts)} hosts scored, staged and committed in ${fmt(a.ms)} ms (the commit ${fmt(a.commitMs)} ms): peak RSS ${fmt(a.peakRssMb)} MB (target < ${rssTarget} MB; the CLI's ${fmt(cliPeakMb)} MB; the app loaded without a cycle: ${fmt(appBaseline)} MB; /proc VmHWM sampled ${fmt(a.sampledHwmMb)} MB; V8 heap used at most ${fmt(a.memoryMb?.heapUsed ?? 0)} MB; edr.db + WAL after the cycle ${fmt(a.dbMb)} MB)`,
    );
  };

  if (want('scoring')) {
    const s = await benchScoring(200_000);
    console.log(`scoring: ${fmt(s.hosts)} Defender hosts in ${fmt(s.ms)} ms = ${fmt(s.hostsPerSecond)} hosts/s`);
  }

  if (want('defender')) {
    const rows = await benchDefender(50_000, 1_000);
    const [bulk, per] = [rows.find((r) => r.path === 'bulk')!, rows.find((r) => r.path === 'per-machine')!];
    console.log(`defender bulk: ${fmt(bulk.hosts)} hosts, ${fmt(bulk.calls)} calls, ${bulk.r429} x 429, ${fmt(bulk.wallMs)} ms at the documented limits (real time, no scaling)`);
    console.log(
      `defender per-device: ${fmt(per.hosts)} hosts, ${fmt(per.calls)} calls, ${per.r429} x 429, ${fmt(per.wallMs)} ms wall at ${fmt(per.rateScale)}x vendor time = ${fmt(per.vendorMinutes / 60, 1)} vendor hours (the limits alone need ${fmt(per.floorMinutes / 60, 1)} h)`,
    );
    console.log(`defender: the bulk path is ${fmt(per.vendorMinutes / bulk.vendorMinutes, 0)}x faster than per-device and needs ${fmt(per.calls / bulk.calls, 0)}x fewer calls`);
    const d = await benchDefenderCycle(50_000);
    const base = await pollerBaseline();
    console.log(
      `defender memory: \`northbound edr poll\` in a child process, ${fmt(d.hosts)} hosts scored in ${fmt(d.ms)} ms: peak RSS ${fmt(d.peakRssMb)} MB (target < ${rssTarget} MB; the same command loaded without a cycle: ${fmt(base)} MB; /proc VmHWM sampled ${fmt(d.sampledHwmMb)} MB)`,
    );
    await appLine('defender', await benchDefenderAppCycle(50_000), d.peakRssMb);
  }

  if (want('falcon')) {
    const f = await benchFalconCycle(100_000);
    const base = await pollerBaseline();
    console.log(
      `falcon memory: \`northbound edr poll\` in a child process, ${fmt(f.hosts)} hosts scored: peak RSS ${fmt(f.peakRssMb)} MB (target < ${rssTarget} MB; the same command loaded without a cycle: ${fmt(base)} MB; /proc VmHWM sampled ${fmt(f.sampledHwmMb)} MB)`,
    );
    const app = await benchFalconAppCycle(100_000);
    await appLine('falcon', app, f.peakRssMb);
    console.log(`falcon main's event loop: ${stallLine('falcon', app)}`);
    console.log(
      `falcon rate: time ${fmt(f.ms / 1000, 2)} s, floor = calls / ${fmt(f.rateLimit)} per minute = ${fmt(f.calls)} / ${fmt(f.rateLimit)} min = ${fmt(f.floorMs / 1000, 2)} s, ratio ${fmt(f.ratio, 2)} (target <= 1.2; real time, no scaling; the simulator's budget starts empty so the limit binds from the first call; ${f.r429} x 429, ${f.tokenCalls} token call(s) not counted)`,
    );
  }

  if (want('main-stall')) {
    // Issue 21 item 5: main's event loop while the app writes (target: no stall ≥ 50 ms). Also run by `falcon` (its app line) and here alone.
    // Each run on its own (a stall is also time waiting for a CPU, so one run is one draw): NB_BENCH_STALL_RUNS, default 3.
    const asked = Number(process.env.NB_BENCH_STALL_RUNS);
    const runs = Number.isInteger(asked) && asked >= 1 ? asked : 3;
    const stalls: number[] = [];
    for (let i = 0; i < runs; i++) {
      const f = await benchFalconAppCycle(100_000);
      stalls.push(f.stall?.longestMs ?? Number.NaN);
      console.log(`main-stall: run ${i + 1} of ${runs}: ${stallLine('falcon', f)}`);
    }
    console.log(`main-stall: falcon 100,000 hosts, main's longest event-loop stall in each of ${runs} first cycles: ${stalls.map((x) => `${fmt(x, 1)} ms`).join(', ')}; worst ${fmt(Math.max(...stalls), 1)} ms (target < 50 ms)`);
    const a = await benchAlarmStall(2_000, 15);
    // The machine's load beside the figures: on shared cores a stall is also time spent waiting for one.
    console.log(`main-stall: load average ${os.loadavg().map((l) => fmt(l, 1)).join(', ')} on ${os.cpus().length} cores`);
    console.log(
      `main-stall: alarms ${fmt(a.target)} changes/s for ${a.seconds} s from the app's demo node through RabbitMQ into alarms.db (${fmt(a.emitted)} emitted, ${fmt(a.stored)} stored meanwhile): ${describeStall(a.stall)}; longest batch write on main ${fmt(a.longestIngestMs, 1)} ms of ${fmt(a.ingests)}`,
    );
  }

  if (want('store')) {
    const s = await benchStore(100_000);
    console.log(`store: wrote a cycle of ${fmt(s.hosts)} scores in ${fmt(s.ms)} ms (${fmt(s.rowsPerSecond)} rows/s); 5,000 hosts one transaction ${fmt(s.batchMsFor5k, 1)} ms vs one commit per host ${fmt(s.perRowMsFor5k, 1)} ms = ${fmt(s.ratio, 1)}x`);
    console.log(`store: the app poller's path on that cycle (hosts already stored once): staged in batches of 5,000 in ${fmt(s.stageMs)} ms, committed (INSERT … SELECT into hosts, host_seen and history, staged rows deleted) in ${fmt(s.commitMs)} ms`);
  }

  if (want('org-hierarchy')) {
    const o = benchOrgHierarchy(5_000);
    console.log(`org-hierarchy: the inventory store lists a chain of ${fmt(o.length)} organizations (depth, inherited plan) in ${fmt(o.chainMs, 1)} ms (target < 500 ms, linear) and a loop of ${fmt(o.length)} parent links in ${fmt(o.loopMs, 1)} ms (target < 500 ms)`);
  }

  if (want('zta-table')) {
    // The ZTA dashboard over 100,000 stored hosts in Chromium (the real app in browser mode).
    dashboardLines('zta-table', await benchZtaDashboard(() => sqliteDashboard(100_000), process.env.NB_BENCH_TRACE_DIR));
  }

  if (want('zta-report')) {
    // The risk report over 100,000 stored hosts: the build before C-95 (the whole snapshot) beside this one (the store's windows).
    const runs = await benchZtaReport(100_000);
    const of = (b: 'before' | 'now') => runs.filter((r) => r.build === b);
    const best = (b: 'before' | 'now', k: 'readyMs' | 'heapMb') => Math.min(...of(b).map((r) => r[k]));
    const side = (b: 'before' | 'now') => `${of(b).map((r) => `${fmt(r.readyMs)} ms, ${fmt(r.heapMb, 1)} MB`).join('; ')} [main: ${mainCalls(of(b)[0]!.main)}]`;
    console.log(
      `zta-report: 100,000 hosts (SQLite) in Chromium, navigation to data-report-ready and the JS heap after a GC, each run on a fresh page: before C-95 (${REPORT_BEFORE_COMMIT}, whole zta.snapshot) ${side('before')}; now (facets, counts, a window of 20, overview) ${side('now')}; best before/now: time ${fmt(best('before', 'readyMs') / best('now', 'readyMs'), 1)}x, heap ${fmt(best('before', 'heapMb') / best('now', 'heapMb'), 1)}x`,
    );
  }

  if (want('zta-table-pg')) {
    // The same over 1,000,000 hosts a team stores in PostgreSQL, the app joined to the team as a console.
    dashboardLines('zta-table-pg', await benchZtaDashboard(() => teamPgDashboard(1_000_000), process.env.NB_BENCH_TRACE_DIR));
  }

  if (want('zta-store')) {
    // 7 days of 10-minute cycles (1,008) of 100,000 Defender hosts, 2 % changing per cycle, through the app poller's path.
    // NB_BENCH_ZTA_DAYS=1 runs a shorter store (an hour less): the write of one cycle, not the file size the target is for.
    const days = Number(process.env.NB_BENCH_ZTA_DAYS ?? 7);
    if (!(days > 0 && days <= 7)) throw new Error(`NB_BENCH_ZTA_DAYS must be a number of days above 0 and at most 7 (e.g. 1 or 0.5), not ${process.env.NB_BENCH_ZTA_DAYS}`);
    const z = await benchZtaStore(100_000, days, 0.02, (i, stage, commit) => {
      if (i % 144 === 0) console.log(`zta-store: day ${i / 144 + 1}, cycle ${i + 1}: staged in ${fmt(stage)} ms, committed in ${fmt(commit)} ms`);
    });
    const q = z.queries;
    console.log(
      `zta-store: ${fmt(z.cycles)} cycles of ${fmt(z.hosts)} hosts (${fmt(z.changedPerCycle)} changing each) (${days} days) in ${fmt(z.totalMs / 60_000, 1)} min; one cycle's write (after the first): staging its batches median ${fmt(z.stageMs.median)} ms (p95 ${fmt(z.stageMs.p95)}), the commit median ${fmt(z.commitMs.median)} ms (p95 ${fmt(z.commitMs.p95)}, worst ${fmt(z.commitMs.max)}), both median ${fmt(z.cycleMs.median)} ms (p95 ${fmt(z.cycleMs.p95)}; target < 1,000 ms); edr.db + WAL at the end ${fmt(z.fileMb)} MB (target < 500 MB${days < 7 ? ` for 7 days; this store holds ${days}` : ''}); queries over that store: the snapshot of 100,000 hosts ${fmt(q.snapshotMs)} ms, a host's history over 200 cycles ${fmt(q.historyMs, 1)} ms, the trend of 100 cycles ${fmt(q.trendMs, 1)} ms, the newest cycle's changes ${fmt(q.changesMs, 1)} ms`,
    );
  }

  if (want('zta-windows')) {
    // The ZTA table's windows served by the store (issue 25.3): 100,000 hosts in SQLite (through its staging), 1,000,000 in PostgreSQL (bulk SQL).
    const t = (x: Timing) => `${fmt(x.medianMs, 1)} ms (worst ${fmt(x.worstMs, 1)})`;
    const ratio = (x: Timing, target: number) => `${fmt(x.worstMs / target, 2)}x`;
    const line = (w: WindowsBench) => {
      const worstKey = w.keystrokes.reduce((a, b) => (b.firstMs > a.firstMs ? b : a));
      const worstSort = w.sorts.reduce((a, b) => (b.worstMs > a.worstMs ? b : a));
      console.log(
        `zta-windows ${w.backend}: ${fmt(w.hosts)} hosts (loaded in ${fmt(w.loadMs / 1000, 1)} s); first window (default order, 100 rows and the total) ${t(w.first)} = ${ratio(w.first, 500)} the 500 ms target; counts by band and customer → platform ${t(w.counts)}, of one customer ${t(w.customerCounts)}; page 500 (offset 50,000) ${t(w.deepPage)}`,
      );
      console.log(
        `zta-windows ${w.backend}: search keystrokes (a window and the counts together), typed the first time: ${w.keystrokes.map((k) => `"${k.q}" ${fmt(k.firstMs)} ms (${k.exact ? '' : 'at least '}${fmt(k.total)} hosts)`).join(', ')}; worst "${worstKey.q}" ${fmt(worstKey.firstMs, 1)} ms = ${fmt(worstKey.firstMs / 100, 2)}x the 100 ms target; typed again (counts kept) ${w.keystrokes.map((k) => fmt(k.again.medianMs)).join(', ')} ms`,
      );
      console.log(`zta-windows ${w.backend}: sorts (first window) ${w.sorts.map((x) => `${x.sort} ${t(x)}`).join(', ')}; worst ${ratio(worstSort, 300)} the 300 ms target`);
    };
    line(await benchZtaWindowsSqlite(100_000));
    line(await benchZtaWindowsPg(1_000_000));
  }

  if (want('zta-export')) {
    // The ZTA export of 100,000 hosts on SQLite (issue 25.3, C-86): streamed from the store against the in-memory snapshot as before, interleaved child processes.
    const e = await benchZtaExport(100_000, 3);
    const of = (mode: ExportRun['mode']) => e.runs.filter((r) => r.mode === mode);
    const range = (xs: number[]) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
    const part = (mode: ExportRun['mode']) =>
      `${mode === 'stream' ? 'streamed from the store' : 'from the snapshot in memory (before)'} ${range(of(mode).map((r) => r.ms))} ms, peak RSS ${range(of(mode).map((r) => r.peakMb))} MB (loaded ${range(of(mode).map((r) => r.loadedMb))} MB)`;
    console.log(
      `zta-export: ${fmt(e.hosts)} hosts on SQLite (loaded in ${fmt(e.loadMs / 1000, 1)} s), every host to CSV through ZtaExports, ${of('stream').length} runs each interleaved, child processes: ${part('stream')}; ${part('snapshot')}; V8 heap in use after a full collection (runs apart, not timed): ${e.live.map((r) => `${r.mode} ${fmt(r.loadedLiveMb ?? 0)} MB loaded, ${fmt(r.liveMb ?? 0)} MB at most`).join(', ')}; load ${e.load.map((l) => fmt(l, 1)).join(', ')}`,
    );
  }

  if (want('edr-pg')) {
    // One cycle of 100,000 hosts into PostgreSQL and into SQLite (the first, then 3 steady ones, 4 % changing each),
    // then 7 days of cycles at 10,000 hosts for the history's size, extrapolated to 100,000 (edr-pg.bench-part.ts).
    const e = await benchEdrPg(100_000, 3, 0.04, 10_000, (line) => console.log(line));
    const one = (c: { stageMs: number; commitMs: number }) => `${fmt(c.stageMs + c.commitMs)} ms (staging ${fmt(c.stageMs)} + commit ${fmt(c.commitMs)})`;
    const median = (xs: Array<{ stageMs: number; commitMs: number }>) => [...xs].sort((a, b) => a.stageMs + a.commitMs - (b.stageMs + b.commitMs))[Math.floor(xs.length / 2)]!;
    console.log(
      `edr-pg: one cycle of ${fmt(e.hosts)} Defender hosts (${fmt(e.changedPerCycle)} changing), staged in batches of 5,000 and committed: PostgreSQL ${one(median(e.pg.slice(1)))}, SQLite ${one(median(e.sqlite.slice(1)))} (median of ${e.pg.length - 1} steady cycles; target < 1,000 ms); the first cycle (every host new): PostgreSQL ${one(e.pg[0]!)}, SQLite ${one(e.sqlite[0]!)}`,
    );
    const h = e.history;
    console.log(
      `edr-pg: 7 days of 10-minute cycles (${fmt(h.cycles)}) at ${fmt(h.hosts)} hosts in ${fmt(h.minutes, 1)} min, ${fmt(h.changeRowsPerCycle)} history rows a cycle: ${fmt(h.totalMb, 1)} MB (${Object.entries(h.tablesMb).map(([t, mb]) => `${t} ${fmt(mb, 1)}`).join(', ')}); at ${fmt(e.hosts)} hosts ≈ ${fmt(h.extrapolatedMb)} MB (per-host tables × ${fmt(e.hosts / h.hosts)}; check after ${e.pg.length} cycles: hosts + host_seen + host_details measured ${fmt(e.perHostCheck.measuredMb)} MB at ${fmt(e.hosts)} hosts, scaled from ${fmt(h.hosts)} ${fmt(e.perHostCheck.scaledMb)} MB)`,
    );
  }

  if (want('inventory')) {
    // A device list replaced over itself, then its appliances (C-100): on main's connection and on the writer thread, side by side.
    const runs = await benchInventoryReplace((process.env.NB_BENCH_DEVICES ?? '20000,100000').split(',').map(Number));
    const stall = (s: StallReport) =>
      `main's loop stalled at most ${fmt(s.longestMs)} ms${s.longestCpuMs === undefined ? '' : ` (main's CPU without a turn ${fmt(s.longestCpuMs)} ms)`}, longest GC pause ${s.longestGcMs > 0 ? `${fmt(s.longestGcMs)} ms (${s.longestGcKind})` : 'none'}`;
    for (const r of runs) {
      console.log(
        `inventory replace (${fmt(r.devices)} devices, ${r.where === 'owner' ? "main's connection" : 'writer thread'}): devices ${fmt(r.replaceMs)} ms, ${stall(r.replaceStall)}; appliances ${fmt(r.appliancesMs)} ms, ${stall(r.appliancesStall)}`,
      );
    }
    for (const n of new Set(runs.map((r) => r.devices))) {
      const of = (where: string) => runs.filter((r) => r.devices === n && r.where === where);
      const worst = (rs: typeof runs, f: (r: (typeof runs)[0]) => number) => Math.max(...rs.map(f));
      const [owner, writer] = [of('owner'), of('writer')];
      console.log(
        `inventory replace (${fmt(n)} devices): writer thread / main's connection, worst of each: devices ${fmt(worst(writer, (r) => r.replaceMs) / worst(owner, (r) => r.replaceMs), 2)}x the time, main's longest stall ${fmt(worst(writer, (r) => r.replaceStall.longestMs))} ms against ${fmt(worst(owner, (r) => r.replaceStall.longestMs))} ms (${fmt(worst(writer, (r) => r.replaceStall.longestMs) / worst(owner, (r) => r.replaceStall.longestMs), 3)}x); appliances main's longest stall ${fmt(worst(writer, (r) => r.appliancesStall.longestMs))} ms against ${fmt(worst(owner, (r) => r.appliancesStall.longestMs))} ms`,
      );
    }
  }

  if (want('paging')) {
    const rows = await benchPaging(20_000, 500);
    for (const r of rows) console.log(`paging (${r.label}): ${fmt(r.devices)} devices + ${fmt(r.organizations)} organizations in ${fmt(r.ms)} ms, ${fmt(r.calls)} calls, stored in SQLite`);
    const [full, capped] = rows as [(typeof rows)[0], (typeof rows)[0]];
    console.log(`paging: pages of 500 are ${fmt(capped.ms / full.ms, 1)}x faster than a node capping pages at 50 (${fmt(capped.calls / full.calls, 1)}x the calls)`);
  }

  if (want('cancel')) {
    const c = await benchCancel(2_000);
    console.log(
      `cancel: quitting during a refresh ended it and the node saw the request aborted after ${fmt(c.quitRefreshMs)} ms, cancelling a bulk job ended it after ${fmt(c.cancelJobMs)} ms, against a node answering in ${fmt(c.nodeMs)} ms (ratios ${fmt(c.quitRefreshMs / c.nodeMs, 2)} and ${fmt(c.cancelJobMs / c.nodeMs, 2)}; a cancel waits at most for the calls in flight); a 300-row job sent ${fmt(c.progressEvents)} progress events (throttle bound ${fmt(c.progressBound)}, at most one per 100 ms)`,
    );
  }

  if (want('table')) {
    // The devices table over windows of the store (issue 25.3, C-99), at 20,000 and 100,000 devices; the ZTA table's targets.
    for (const n of (process.env.NB_BENCH_DEVICES ?? '20000,100000').split(',').map(Number)) {
      const t = await benchDevicesTable(n, 500);
      const keys = t.keystrokes.map((k) => k.ms).sort((a, b) => a - b);
      const median = keys[Math.floor(keys.length / 2)]!;
      const worst = keys[keys.length - 1]!;
      const worstSort = Math.max(...t.sorts.map((s) => s.ms));
      const head = `devices table (Chromium, ${fmt(t.devices)} devices, ${fmt(t.organizations)} organizations)`;
      console.log(`${head}: search keystrokes ${t.keystrokes.map((k) => fmt(k.ms)).join(', ')} ms`);
      console.log(`${head}: sort ${t.sorts.map((s) => `${s.column} ${fmt(s.ms, 1)} ms`).join(', ')}; organization filter ${fmt(t.orgFilterMs, 1)} ms`);
      console.log(
        `${head}: first rows ${fmt(t.firstRowsMs)} ms = ${fmt(t.firstRowsMs / 500, 2)}x the 500 ms target | worst key ${fmt(worst, 1)} ms (median ${fmt(median, 1)}) = ${fmt(worst / 100, 2)}x the 100 ms target | worst sort ${fmt(worstSort, 1)} ms = ${fmt(worstSort / 300, 2)}x the 300 ms target | JS heap after a GC ${fmt(t.heapAfterMb, 1)} MB (before the devices ${fmt(t.heapBeforeMb, 1)} MB) = ${fmt(t.heapAfterMb / 100, 2)}x the 100 MB target`,
      );
    }
  }

  if (want('alarms')) {
    const a = await benchAlarmStream(2_000, 30);
    console.log(
      `alarms: ${fmt(a.target)} changes/s for ${a.seconds} s from the simulator through RabbitMQ into alarms.db (\`alarms follow\` in a child process): the simulator emitted ${fmt(a.emitted)} changes = ${fmt(a.rate)}/s, stored ${fmt(a.stored)}, lost ${fmt(a.lost)} (must be 0), stored twice ${fmt(a.duplicates)}; end-to-end latency p50 ${fmt(a.p50Ms)} ms, p99 ${fmt(a.p99Ms)} ms (target < 1,000 ms), worst ${fmt(a.maxMs)} ms; drained ${fmt(a.drainMs)} ms after the last change; the consumer's peak RSS ${fmt(a.peakRssMb)} MB (VmRSS sampled ${fmt(a.sampledRssMb)} MB)`,
    );
  }

  if (want('fleet-workers')) {
    // Issue 24.2: polls per minute with 1, 2 and 3 workers over 30 simulated tenants, and what bounds it here.
    const hosts = Number(process.env.NB_BENCH_FLEET_HOSTS ?? 1_000);
    for (const f of await benchFleetWorkers(15, hosts)) {
      const used = f.cpu.workers + f.cpu.simulators + f.cpu.postgres + f.cpu.rabbitmq;
      console.log(
        `fleet workers, ${f.workers} worker${f.workers > 1 ? 's' : ''} (concurrency 4 each): ${f.tenants} tenants × ${fmt(f.hosts)} hosts polled, scored, committed and published in ${fmt(f.spanMs / 1000, 1)} s = ${fmt(f.pollsPerMinute, 1)} polls/min; CPU in that span: workers ${fmt(f.cpu.workers, 1)} s, simulators ${fmt(f.cpu.simulators, 1)} s, PostgreSQL ${fmt(f.cpu.postgres, 1)} s, RabbitMQ ${fmt(f.cpu.rabbitmq, 1)} s = ${fmt((100 * used) / f.capacity)} % of the ${os.cpus().length} cores (the machine, everyone's processes: ${fmt((100 * f.machineBusy) / f.capacity)} % busy)`,
      );
    }
  }

  if (want('alarms-fleet')) {
    // Issue 24.4: 1 and 2 collectors on the node's one queue into PostgreSQL, side by side. NB_BENCH_FLEET_RATE sets another rate,
    // NB_BENCH_FLEET_COLLECTORS other fleets (1,2,3; 0: none), NB_BENCH_FLEET_ONLY=1 leaves the store alone out.
    for (const [size, inFlight] of process.env.NB_BENCH_FLEET_ONLY ? [] : [[500, 1], [2_000, 1], [1_000, 2], [2_000, 2]]) {
      const i = await benchAlarmPgIngest(size!, 20, inFlight);
      console.log(`alarms fleet, the PostgreSQL store alone: batches of ${fmt(size!)} broker messages, ${inFlight === 1 ? 'one after another' : `${inFlight} at once`}: ${fmt(i.perSecond)} changes/s, ${fmt(i.batchMs, 1)} ms a batch`);
    }
    const rate = Number(process.env.NB_BENCH_FLEET_RATE ?? 10_000);
    for (const n of (process.env.NB_BENCH_FLEET_COLLECTORS ?? '1,2').split(',').map(Number).filter((n) => n > 0)) {
      const f = await benchAlarmFleet(n, rate, 20);
      console.log(
        `alarms fleet, ${n} collector${n > 1 ? 's' : ''}: ${fmt(f.target)} changes/s asked of the simulator for ${f.seconds} s through RabbitMQ into PostgreSQL (\`alarms follow --database-url\` × ${n}, one queue): emitted ${fmt(f.emitted)} = ${fmt(f.rate)}/s, stored ${fmt(f.stored)} at ${fmt(f.storedRate)}/s (target ≥ 10,000/s), lost ${fmt(f.lost)} (must be 0), stored twice ${fmt(f.duplicates)}; store latency p50 ${fmt(f.p50Ms)} ms, p99 ${fmt(f.p99Ms)} ms (target < 1,000 ms), worst ${fmt(f.maxMs)} ms; drained ${fmt(f.drainMs)} ms after the last change; waiting in the queue at most ${fmt(f.backlog.max)} (${fmt(f.backlog.atStop)} when the node stopped), not yet taken by the broker at most ${fmt(f.unconfirmed.max)} (${fmt(f.unconfirmed.atStop)}); CPU over ${fmt(f.cpu.wallS, 1)} s (2 cores = ${fmt(2 * f.cpu.wallS, 1)} CPU s): simulator ${fmt(f.cpu.simulator, 1)} s, RabbitMQ ${fmt(f.cpu.rabbit, 1)} s, collector${n > 1 ? 's' : ''} ${f.cpu.collectors.map((c) => fmt(c, 1)).join(' + ')} s, PostgreSQL ${fmt(f.cpu.postgres, 1)} s`,
      );
    }
  }

  if (want('alarms') || want('alarms-page')) {
    // The window's figure: the Alarms page in Chromium while the app streams 2,000 changes/s through RabbitMQ.
    // NB_BENCH_ALARM_RATE sets another rate (a lower one tells whether a figure is the rate's).
    const p = await benchAlarmPage(Number(process.env.NB_BENCH_ALARM_RATE ?? 2_000), 30, process.env.NB_BENCH_TRACE_DIR);
    const keys = p.keystrokesMs.map((k) => fmt(k)).join(', ');
    console.log(
      `alarms page: Chromium on the Alarms page while the demo node streams ${fmt(p.target)} changes/s through RabbitMQ into the app (browser mode) for ${p.seconds} s (${fmt(p.emitted)} emitted, ${fmt(p.stored)} stored meanwhile; source ${p.source}): ${describeMainThread(p.mainThread, p.longestFrameGapMs, p.longTasks)}; a key in the search box to its frame ${keys} ms`,
    );
  }

  if (want('alarms-window')) {
    // Issue 25.3: the Alarms page's first view over 5,000,000 stored changes (SQLite, PostgreSQL), through the router;
    // then the Overview over the fleet's PostgreSQL (that alarm store and the EDR store at 1,000,000 hosts). Bounded:
    // NB_BENCH_ALARM_WINDOW_MINUTES (default 30) for the whole part; a figure not reached by then is not printed.
    const deadline = new Deadline(Date.now() + Number(process.env.NB_BENCH_ALARM_WINDOW_MINUTES ?? 30) * 60_000);
    const load = () => `load ${os.loadavg().map((l) => fmt(l, 1)).join(', ')} on ${os.cpus().length} cores`;
    const lines = (w: AlarmWindowBench) => {
      console.log(`alarms-window ${w.backend}: ${fmt(w.changes)} changes of ${fmt(w.alarms)} alarms seeded by bulk SQL in ${fmt(w.seedMs / 1000, 1)} s; ${load()}`);
      for (const f of w.figures) {
        console.log(`alarms-window ${w.backend}: ${f.what}: first ${fmt(f.firstMs, 1)} ms, median ${fmt(f.medianMs, 1)} ms, worst ${fmt(f.worstMs, 1)} ms (target < 500 ms${f.worstMs >= 500 ? ': MISSED' : ''}; this process's CPU median ${fmt(f.cpuMedianMs, 1)} ms)${f.answer ? `; ${f.answer}` : ''}`);
      }
    };
    lines(await benchAlarmWindowSqlite(5, deadline));
    const pg = await benchAlarmWindowPg(Number(process.env.NB_BENCH_ALARM_WINDOW_HOSTS ?? 1_000_000), 5, deadline);
    lines(pg.alarms);
    const o = pg.overview;
    if (o) {
      console.log(
        `alarms-window overview over PostgreSQL: ${fmt(o.hosts)} hosts (seeded in ${fmt(o.edrSeedMs / 1000, 1)} s) and the 5,000,000-change alarm store: overview.get through the router first ${fmt(o.overview.firstMs, 1)} ms, median ${fmt(o.overview.medianMs, 1)} ms, worst ${fmt(o.overview.worstMs, 1)} ms (target < 500 ms${o.overview.worstMs >= 500 ? ': MISSED' : ''}); ${o.answer}; ${load()}`,
      );
      for (const c of o.calls) console.log(`alarms-window overview over PostgreSQL: ${c.what}: first ${fmt(c.firstMs, 1)} ms, median ${fmt(c.medianMs, 1)} ms, worst ${fmt(c.worstMs, 1)} ms`);
      console.log(`alarms-window: ${load()} at the end`);
    }
  }

  if (want('overview')) {
    const o = await benchOverview(100_000, 100_000, 20_000);
    console.log(
      `overview: first render in Chromium with ${fmt(o.hosts)} stored hosts (2 cycles), ${fmt(o.alarms)} stored alarms (${fmt(o.activeAlarms)} active) and ${fmt(o.devices)} devices, the app started cold on that data folder: navigation to #/overview until every tile shows its "as of" ${fmt(o.firstRenderMs)} ms (target < 500 ms); main's overview.get (SQL aggregates, no row loaded into the window) cold ${fmt(o.mainColdMs, 1)} ms, warm median of 5 ${fmt(o.mainWarmMs, 1)} ms`,
    );
  }

  if (want('connector-import')) {
    const c = await benchConnectorImport(10_000);
    console.log(
      `connector import: connectors.importBulk of ${fmt(c.entries)} entries (the contract's maximum) through the router, passphrase vault on disk: ${fmt(c.created)} created in ${fmt(c.createMs)} ms, the same document again (${fmt(c.updated)} updated) in ${fmt(c.updateMs)} ms (one settings write and one vault write each)`,
    );
  }

  if (want('bulk')) {
    const rows = await benchBulkOnboarding(1_000, [1, 4, 10], 10);
    const one = rows[0]!;
    for (const r of rows) {
      console.log(`bulk onboarding: ${fmt(r.devices)} devices at ${r.concurrency} in flight in ${fmt(r.ms)} ms = ${fmt(r.perSecond)} devices/s (${fmt(r.perSecond / one.perSecond, 1)}x of 1 in flight; node answers after 10 ms)`);
    }
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
