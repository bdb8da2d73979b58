/**
 * The devices table in Chromium, fed by the real app: 20,000 devices and 500 organizations paged
 * in from the management node simulator over HTTPS, stored in SQLite, served in browser mode to
 * Debian's Chromium. Each measurement runs in the page from the input event (a real key press
 * from the keyboard, a header click, a filter choice) until the table shows the answer (the
 * store's window shown, nothing marked stale) and the next frame has started. The rows are read in
 * windows from the store (issue 25.3, C-99): also timed are the first rows from the click on
 * Devices, and the renderer's JS heap after a GC before and after.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from 'playwright';
import { build } from 'vite';
import { createMemoryLogger } from '../../electron/log';
import { startWebHost } from '../../electron/web/host';
import { startNodeRig } from './inventory.bench-part';
import { InventoryDb, type StoredAppliance } from '../../electron/inventory/store/inventory-db';
import type { DeviceView } from '../../shared/model/inventory';

export interface TableBench {
  devices: number;
  organizations: number;
  /** Milliseconds per key press of the search, in the order typed. */
  keystrokes: Array<{ query: string; ms: number; shown: string }>;
  /** Choosing one organization in the filter. */
  orgFilterMs: number;
  /** Header clicks: ascending then descending, per column. */
  sorts: Array<{ column: string; ms: number }>;
  /** From the click on Devices to the count and the first rows shown (read in windows from the store). */
  firstRowsMs: number;
  /** The renderer's JS heap after a GC: on the connections page before the devices, and after every measurement. */
  heapBeforeMb: number;
  heapAfterMb: number;
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/*
 * In-page helpers as strings: tsx would wrap functions with helpers the page does not have.
 * `__nbArm(kind)` starts a measurement on the next input event of that kind and resolves when the
 * count/first row changed (or the table left the stale state) and a frame was painted after it.
 */
const HELPERS = `
window.__nbArm = (kind) => {
  const scroll = () => document.querySelector('[data-testid="devices-scroll"]');
  const count = () => document.querySelector('[data-testid="devices-count"]')?.textContent ?? '';
  const first = () => document.querySelector('[data-testid="device-row"]')?.getAttribute('data-device') ?? '';
  // What the rows shown answer (the page's data-answer): a key answered from the cache may show the same rows.
  const answer = () => document.querySelector('[data-testid="devices-count"]')?.getAttribute('data-answer') ?? '';
  const before = { count: count(), first: first(), answer: answer() };
  let t0 = 0;
  window.__nbResult = new Promise((resolve, reject) => {
    const start = () => {
      t0 = performance.now();
      const settled = () => {
        const stale = scroll()?.classList.contains('stale') ?? false;
        return !stale && (answer() !== before.answer || count() !== before.count || first() !== before.first);
      };
      const finish = () => requestAnimationFrame(() => resolve({ ms: performance.now() - t0, shown: count() }));
      if (settled()) return finish();
      const mo = new MutationObserver(() => {
        if (settled()) { mo.disconnect(); clearTimeout(timer); finish(); }
      });
      mo.observe(document.querySelector('.devices-page'), { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['class', 'data-device', 'data-answer'] });
      const timer = setTimeout(() => { mo.disconnect(); reject(new Error('the table did not change within 5 s of the ' + kind)); }, 5000);
    };
    // Capture phase on window: before React sees the event.
    window.addEventListener(kind, start, { capture: true, once: true });
  });
};`;

async function measure(page: Page, kind: 'keydown' | 'click' | 'change', act: () => Promise<void>): Promise<{ ms: number; shown: string }> {
  await page.evaluate(`window.__nbArm(${JSON.stringify(kind)})`);
  await act();
  return (await page.evaluate('window.__nbResult')) as { ms: number; shown: string };
}

/** Builds the renderer into a temporary folder, so the numbers are for the code as it is now. */
async function buildRenderer(outDir: string): Promise<void> {
  await build({ configFile: path.resolve('vite.config.ts'), logLevel: 'error', build: { outDir, emptyOutDir: true, sourcemap: false } });
}

const SIM_MAX_DEVICES = 20_000;

/** Copies the stored devices (and their appliances) with suffixed names up to `devices`, in one replace each. */
async function widenStoredList(dataDir: string, profileId: string, devices: number): Promise<void> {
  const db = new InventoryDb(path.join(dataDir, 'inventory.db'));
  try {
    const stored = db.devices(profileId);
    const list: DeviceView[] = [];
    const appliances: StoredAppliance[] = [];
    for (let copy = 0; list.length < devices; copy++) {
      for (const d of stored.items) {
        if (list.length >= devices) break;
        const name = copy === 0 ? d.deviceName : `${d.deviceName}-c${copy}`;
        list.push({ ...d, deviceName: name, appliance: null });
        if (d.appliance) {
          const { fetchedAt: _at, ...state } = d.appliance;
          appliances.push({ name, ...state });
        }
      }
    }
    const at = new Date().toISOString();
    db.replaceDevices(profileId, list, stored.fetchedAt ?? at);
    db.replaceAppliances(profileId, appliances, at);
  } finally {
    db.close();
  }
}

export async function benchDevicesTable(devices: number, organizations: number): Promise<TableBench> {
  const staticDir = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-ui-'));
  await buildRenderer(staticDir);
  // The simulator seeds at most 20,000 devices: a larger list is the node's 20,000 stored, then
  // copied (name suffixed "-c1", "-c2", …) into inventory.db beside the app through the store itself.
  const seeded = Math.min(devices, SIM_MAX_DEVICES);
  const rig = await startNodeRig({ organizations, devices: seeded });
  const host = await startWebHost({ router: rig.app.router, events: rig.app.events, logger: createMemoryLogger('warn'), staticDir });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    const r = await rig.call<{ devices: number; organizations: number }>('inventory.refresh', { profileId: rig.profileId, what: 'all' });
    if (r.devices !== seeded || r.organizations !== organizations) throw new Error(`paged ${r.devices}/${r.organizations}, expected ${seeded}/${organizations}`);
    if (devices > seeded) await widenStoredList(rig.dataDir, rig.profileId, devices);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // The app opens on the Overview; the bench starts on the connections page (nothing of the devices read yet).
    await page.goto(`${host.url}#/connections`);
    await page.getByTestId('profile-row-Bench node').waitFor();
    const cdp = await page.context().newCDPSession(page);
    const heapNow = async () => {
      await cdp.send('HeapProfiler.collectGarbage');
      return ((await cdp.send('Runtime.getHeapUsage')) as { usedSize: number }).usedSize / 1024 / 1024;
    };
    const heapBeforeMb = await heapNow();
    const total = `${devices.toLocaleString('en-US')} devices`;
    const t0 = Date.now();
    await page.getByRole('link', { name: 'Devices', exact: true }).click();
    await Promise.all([page.getByTestId('devices-count').filter({ hasText: total }).waitFor({ timeout: 60_000 }), page.getByTestId('device-row').first().waitFor({ timeout: 60_000 })])
      .catch(async (e: unknown) => {
        await page.screenshot({ path: path.join(os.tmpdir(), 'nb-bench-table-failure.png') });
        throw e;
      });
    const firstRowsMs = Date.now() - t0;
    await page.evaluate(HELPERS);

    // A name typed key by key, each key narrowing the rows; then erased.
    const sample = rig.sim.inventory.device(`${(rig.sim.inventory.organizations().find((o) => o.parent !== null)?.name ?? '').toLowerCase()}-berlin-00001`);
    const query = sample?.deviceName ?? 'berlin-00012';
    const keystrokes: TableBench['keystrokes'] = [];
    await page.getByTestId('devices-search').focus();
    for (let i = 0; i < Math.min(query.length, 14); i++) {
      const key = query[i]!;
      const m = await measure(page, 'keydown', () => page.keyboard.press(key));
      keystrokes.push({ query: query.slice(0, i + 1), ...m });
    }
    for (let i = 0; i < 3; i++) {
      const m = await measure(page, 'keydown', () => page.keyboard.press('Backspace'));
      keystrokes.push({ query: '⌫', ...m });
    }
    await page.getByTestId('devices-search').fill('');
    await page.getByTestId('devices-count').filter({ hasText: total }).waitFor();

    const org = rig.sim.inventory.organizations().find((o) => o.parent !== null)!.name;
    const orgFilter = await measure(page, 'change', () => page.getByTestId('devices-filter-org').selectOption(org).then(() => undefined));
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByTestId('devices-count').filter({ hasText: total }).waitFor();

    const sorts: TableBench['sorts'] = [];
    for (const column of ['Site ID', 'Organization', 'Country', 'Reachability', 'Device name']) {
      const button = page.getByRole('columnheader', { name: column, exact: true }).getByRole('button');
      for (const dir of ['ascending', 'descending']) {
        const m = await measure(page, 'click', () => button.click());
        sorts.push({ column: `${column} ${dir}`, ms: m.ms });
      }
    }
    const heapAfterMb = await heapNow();
    return { devices, organizations, keystrokes, orgFilterMs: orgFilter.ms, sorts, firstRowsMs, heapBeforeMb, heapAfterMb };
  } finally {
    await browser.close();
    await host.close();
    await rig.close();
    await rm(staticDir, { recursive: true, force: true });
  }
}
