/**
 * The Overview's first render (issue 13) with 100,000 stored hosts, 100,000 stored alarms and
 * 20,000 devices: the real app in browser mode, in Debian's Chromium, on a data folder that holds
 * two cycles of 100,000 Defender hosts (zta-seed.ts), 20,000 devices paged in from the management
 * node simulator through the app, and 100,000 alarms of that connection written to alarms.db in
 * batches (as the collector stores them). The app is then started again on that folder, so its
 * caches are cold, and a page that is not the Overview takes the token; then the clock starts at
 * the navigation to `#/overview` and stops when every tile shows its "as of" (its numbers read).
 * Main's answer (`overview.get` through the router) is timed on its own too.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright';
import { build } from 'vite';
import { createNodeAdapters } from '../../electron/app/node-platform';
import { createApp } from '../../electron/app/services';
import type { AlarmItem } from '../../shared/model/alarms';
import { createMemoryLogger } from '../../electron/log';
import { startMgmtSimulator } from '@northbound/simulators/testing';
import { AlarmDb } from '../../electron/alarms/store/alarms-db';
import { startWebHost } from '../../electron/web/host';
import { SEED_PASSPHRASE, seedZtaDataDir } from './zta-seed';

export interface OverviewBench {
  hosts: number;
  alarms: number;
  activeAlarms: number;
  devices: number;
  /** Navigation to `#/overview` until every tile shows its as-of, in Chromium. */
  firstRenderMs: number;
  /** `overview.get` through main's router: the first (cold) call and the median of the next 5. */
  mainColdMs: number;
  mainWarmMs: number;
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const SEVERITIES = ['critical', 'major', 'minor', 'warning', 'indeterminate'] as const;

/** Alarm `i` of the seed: 200 organizations, every fourth one cleared, every tenth one acknowledged. */
function benchAlarm(i: number, t0: number): AlarmItem {
  const severity = SEVERITIES[i % SEVERITIES.length]!;
  const eventMs = t0 + i * 10;
  const cleared = i % 4 === 3;
  const changes = [{ eventMs, severity, text: `${severity} on vni-${i}` }, ...(cleared ? [{ eventMs: eventMs + 5, severity: 'cleared' as const, text: 'cleared' }] : [])];
  const last = changes[changes.length - 1]!;
  const device = `bench-device-${i % 20_000}`;
  return {
    head: { device, deviceName: device, org: `Org ${String(i % 200).padStart(3, '0')}`, object: `vni-0/${i}`, type: 'interface-down', specificProblem: 'link-down', severity: last.severity, cleared, text: last.text, lastChangeMs: last.eventMs },
    changes,
    handlings: i % 10 === 0 ? [{ atMs: eventMs + 1, state: 'ack', user: 'bench', description: '' }] : [],
    messageId: null,
  };
}

export async function benchOverview(hosts: number, alarms: number, devices: number): Promise<OverviewBench> {
  const staticDir = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-overview-ui-'));
  await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'error', build: { outDir: staticDir, emptyOutDir: true, sourcemap: false } });
  const { dataDir } = await seedZtaDataDir(hosts);
  const sim = await startMgmtSimulator({ seedOrganizations: 200, seedDevices: devices });
  const logger = createMemoryLogger('warn');
  const open = async () => {
    const adapters = await createNodeAdapters({ dataDir, passphrase: SEED_PASSPHRASE, logger, mode: 'browser', demoPorts: { basic: 0, oauth: 0 } });
    const app = await createApp(adapters, { edr: { firstPullDelayMs: 3_600_000 } });
    const call = async <T>(channel: string, request: unknown): Promise<T> => {
      const res = (await app.router.invoke(channel, request)) as { ok: boolean; value?: unknown; error?: { code: string; message: string } };
      if (!res.ok) throw new Error(`${channel}: ${res.error?.code} ${res.error?.message}`);
      return res.value as T;
    };
    return { app, call };
  };

  // The connection and its devices, through the app as an operator would.
  const first = await open();
  const op = sim.users.find((u) => u.role === 'admin')!;
  const profile = await first.call<{ id: string }>('profiles.save', { name: 'Bench node', host: '127.0.0.1', basicPort: sim.basicPort, oauthPort: sim.oauthPort, authMode: 'basic', username: op.username, password: op.password, tls: { mode: 'pinned' } });
  const cert = await first.call<{ fingerprint256: string }>('tls.inspect', { profileId: profile.id });
  await first.call('tls.trust', { profileId: profile.id, fingerprint256: cert.fingerprint256 });
  await first.call('session.signIn', { profileId: profile.id });
  const paged = await first.call<{ devices: number }>('inventory.refresh', { profileId: profile.id, what: 'devices' });
  if (paged.devices !== devices) throw new Error(`paged ${paged.devices} devices, expected ${devices}`);
  await first.app.shutdown();
  await sim.close();

  // The connection's alarms, stored as the collector stores them.
  const store = new AlarmDb(path.join(dataDir, 'alarms.db'));
  const t0 = Date.UTC(2026, 10, 20);
  for (let i = 0; i < alarms; i += 5_000) {
    const batch: AlarmItem[] = [];
    for (let j = i; j < Math.min(alarms, i + 5_000); j++) batch.push(benchAlarm(j, t0));
    store.ingest(profile.id, batch, { storedMs: t0 + alarms * 10 + 1_000, cursorMs: t0 + alarms * 10 });
  }
  store.close();

  // Cold: the app started again on the folder, the node gone (the numbers are the stored ones).
  const { app, call } = await open();
  const host = await startWebHost({ router: app.router, events: app.events, logger, staticDir, downloads: app.downloads });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // The token becomes a cookie on a page that is not the Overview; the Overview is then opened cold.
    await page.goto(`${host.url}#/settings`);
    await page.getByTestId('app-info').waitFor({ timeout: 60_000 });
    const started = Date.now();
    await page.goto(`${host.origin}/#/overview`);
    for (const id of ['alarms', 'risk', 'entered', 'devices', 'connectors']) await page.getByTestId(`tile-${id}`).getByTestId('tile-asof').waitFor({ timeout: 60_000 });
    const firstRenderMs = Date.now() - started;
    const shown = await page.getByTestId('risk-hosts').innerText();
    if (shown.replace(/\D/g, '') !== String(hosts)) throw new Error(`the Overview shows ${shown}`);

    const timed = async () => {
      const s = performance.now();
      const o = await call<{ alarms: { state: string; active?: { total: number } } }>('overview.get', { profileId: profile.id });
      return { ms: performance.now() - s, o };
    };
    // Warm: main answered the page already.
    const warm: number[] = [];
    let active = 0;
    for (let i = 0; i < 6; i++) {
      const { ms, o } = await timed();
      if (i > 0) warm.push(ms);
      active = o.alarms.active?.total ?? -1;
    }
    warm.sort((a, b) => a - b);
    await host.close();
    await app.shutdown();

    // Cold: main's first answer in a fresh app on the folder.
    const again = await open();
    const s = performance.now();
    await again.call('overview.get', { profileId: profile.id });
    const mainColdMs = performance.now() - s;
    await again.app.shutdown();
    return { hosts, alarms, activeAlarms: active, devices, firstRenderMs, mainColdMs, mainWarmMs: warm[Math.floor(warm.length / 2)]! };
  } finally {
    await browser.close();
    await rm(dataDir, { recursive: true, force: true });
    await rm(staticDir, { recursive: true, force: true });
  }
}
