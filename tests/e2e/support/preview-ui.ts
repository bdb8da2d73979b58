/**
 * Visual check of the renderer without a backend: serves dist/renderer, injects the in-memory
 * FakeBridge (tests/unit/renderer/support/fake-bridge.ts, bundled with esbuild) as
 * window.northbound, walks through the main screens and writes screenshots to /tmp/ui-*.png
 * in light and dark.
 *
 *   npx vite build && npx tsx tests/e2e/support/preview-ui.ts [outDir=/tmp]
 */
import { build } from 'esbuild';
import { createReadStream, existsSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Page } from 'playwright';
import type { FakeBridge, FP_A, makeProfile } from '../../unit/renderer/support/fake-bridge';
import type { ORG_SPECS, makeDevice, makeDevices, makeOrganizations } from '../../unit/renderer/support/fake-inventory-data';

/** What the injected script leaves on window for the walk-through to drive. */
type PreviewWindow = Window & {
  __fake: FakeBridge;
  __kit: { makeProfile: typeof makeProfile; FP_A: typeof FP_A; FP_B: string; makeDevices: typeof makeDevices; makeDevice: typeof makeDevice; makeOrganizations: typeof makeOrganizations; ORG_SPECS: typeof ORG_SPECS };
};

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const dist = path.join(root, 'dist/renderer');
const outDir = process.argv[2] ?? '/tmp';

const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.map': 'application/json' };

async function bundleFake(): Promise<string> {
  const fake = path.join(root, 'tests/unit/renderer/support/fake-bridge.ts').replace(/\\/g, '/');
  const data = path.join(root, 'tests/unit/renderer/support/fake-inventory-data.ts').replace(/\\/g, '/');
  const result = await build({
    stdin: {
      contents: `
        import { FakeBridge, makeProfile, FP_A, FP_B } from '${fake}';
        import { ORG_SPECS, makeDevice, makeDevices, makeOrganizations } from '${data}';
        const bridge = new FakeBridge({ demoDelayMs: 1500 });
        window.northbound = bridge;
        window.__fake = bridge;
        window.__kit = { makeProfile, FP_A, FP_B, ORG_SPECS, makeDevice, makeDevices, makeOrganizations };
      `,
      resolveDir: root,
      loader: 'ts',
    },
    // The fake's own zod copy must not JIT either: the page's CSP forbids eval.
    banner: { js: 'globalThis.__zod_globalConfig = Object.assign(globalThis.__zod_globalConfig || {}, { jitless: true });' },
    bundle: true,
    format: 'iife',
    platform: 'browser',
    write: false,
  });
  return result.outputFiles[0]!.text;
}

function serve(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname).replace(/^\/+/, '');
    const file = path.resolve(dist, rel);
    const target = file.startsWith(dist) && existsSync(file) && statSync(file).isFile() ? file : path.join(dist, 'index.html');
    res.writeHead(200, { 'Content-Type': MIME[path.extname(target)] ?? 'application/octet-stream' });
    createReadStream(target).pipe(res);
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function shot(page: Page, name: string) {
  const file = path.join(outDir, `ui-${name}.png`);
  await page.waitForTimeout(250);
  await page.screenshot({ path: file });
  console.log('wrote', file);
}

async function run(scheme: 'light' | 'dark', origin: string, fakeScript: string) {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: scheme, deviceScaleFactor: 1 });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') {
      problems.push(`${m.type()}: ${m.text()}`);
      console.log(`[browser ${m.type()}] ${m.text()}`);
    }
  });
  page.on('pageerror', (e) => {
    problems.push(`pageerror: ${e.message}`);
    console.log(`[pageerror] ${e.message}`);
  });
  await page.addInitScript({ content: fakeScript });
  await page.goto(origin);
  if (!(await page.evaluate(() => 'northbound' in window))) throw new Error('the fake bridge was not injected');

  try {
    await walk(page, scheme);
  } catch (e) {
    await page.screenshot({ path: path.join(outDir, `ui-failure-${scheme}.png`) });
    console.log(`failed; see ${path.join(outDir, `ui-failure-${scheme}.png`)}`);
    throw e;
  } finally {
    await browser.close();
    if (problems.length) console.log(`console problems (${scheme}):\n  ${problems.join('\n  ')}`);
  }
}

async function walk(page: Page, scheme: string) {
  await page.getByRole('button', { name: 'Open demo workspace' }).waitFor();
  await shot(page, `welcome-${scheme}`);
  await page.getByRole('button', { name: 'Open demo workspace' }).click();
  await page.getByRole('status').waitFor();
  await shot(page, `demo-starting-${scheme}`);
  await page.getByTestId('profile-row-Demo node (OAuth)').waitFor();

  // A couple more profiles in other states.
  await page.evaluate(() => {
    const w = window as unknown as PreviewWindow;
    const { makeProfile } = w.__kit;
    w.__fake.state.profiles.push(
      makeProfile({ id: 'lab', name: 'Lab node', host: 'lab-mgmt.corp.example', tls: { mode: 'pinned' }, username: 'netops' }),
      makeProfile({ id: 'hq', name: 'HQ production', host: 'mgmt.hq.example.net', authMode: 'oauth', oauthClientId: 'console', username: 'admin' }),
    );
    w.__fake.emit('profiles.changed', { ids: ['lab', 'hq'] });
    w.__fake.setSession({ profileId: 'hq', state: 'sign-in-required', authMode: 'oauth', username: 'admin', error: { code: 'oauth.invalid_refresh_token', message: 'The session ended on the node.', hint: 'Sign in again.' } });
  });
  await page.getByTestId('profile-row-HQ production').waitFor();
  await shot(page, `connections-${scheme}`);

  await page.getByTestId('profile-row-Lab node').getByRole('button', { name: 'Trust certificate' }).click();
  await page.getByTestId('cert-fingerprint').waitFor();
  await shot(page, `trust-${scheme}`);
  await page.evaluate(() => {
    const w = window as unknown as PreviewWindow;
    w.__fake.state.presented = { ...w.__fake.state.presented, fingerprint256: w.__kit.FP_B };
  });
  await page.getByRole('button', { name: 'Trust this certificate' }).click();
  await page.getByTestId('pin-mismatch-dialog').waitFor();
  await shot(page, `pin-mismatch-${scheme}`);
  await page.keyboard.press('Escape');

  await page.getByRole('button', { name: 'Add connection' }).click();
  await page.getByLabel('Auth mode').selectOption('oauth');
  await page.getByLabel('Host').fill('https://bad/');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByText('Give the connection a name.').waitFor();
  await shot(page, `profile-form-${scheme}`);
  await page.keyboard.press('Escape');

  await page.getByTestId('profile-row-Demo node (OAuth)').getByRole('button', { name: 'OAuth clients' }).click();
  await page.getByRole('button', { name: 'New client' }).click();
  await page.getByRole('button', { name: 'Create client' }).waitFor();
  await shot(page, `client-form-top-${scheme}`);
  await page.getByLabel('Name', { exact: true }).fill('noc-dashboard');
  await page.getByLabel('Description').fill('Read-only token for the NOC wall screens');
  await page.getByLabel(/IP address list/).check();
  await page.getByLabel('Address 1').fill('10.20.0.0/16');
  await shot(page, `client-form-${scheme}`);
  await page.getByRole('button', { name: 'Add contact' }).click();
  await page.getByLabel('Contact 1').fill('noc@example.net');
  await page.getByRole('dialog').getByText('Registration metadata').scrollIntoViewIfNeeded();
  await shot(page, `client-form-bottom-${scheme}`);
  await page.getByRole('button', { name: 'Create client' }).click();
  await page.getByTestId('created-client-secret').waitFor();
  await page.getByRole('button', { name: 'Copy secret' }).click();
  await shot(page, `client-created-${scheme}`);
  await page.getByRole('button', { name: 'Done' }).click();
  await shot(page, `clients-${scheme}`);

  await walkInventory(page, scheme);

  await page.keyboard.press('Control+4');
  await shot(page, `alarms-${scheme}`);
  await page.keyboard.press('Control+7');
  await shot(page, `settings-${scheme}`);
}

/** Devices (20,000), details with a deployment, each wizard step, CSV bulk onboarding, organizations, syslog. */
async function walkInventory(page: Page, scheme: string) {
  await page.evaluate(() => {
    const w = window as unknown as PreviewWindow;
    const { makeDevices, makeDevice, makeOrganizations, ORG_SPECS } = w.__kit;
    const inv = w.__fake.inventory;
    const devices = makeDevices(20_000);
    const at = new Date(Date.now() - 3 * 60_000).toISOString();
    for (const id of ['demo-oauth', 'demo-basic']) {
      inv.devices.set(id, devices);
      inv.organizations.set(id, makeOrganizations(ORG_SPECS, devices));
      inv.fetchedAt.set(id, { devices: at, organizations: at });
    }
    for (const id of ['demo-basic', 'demo-oauth']) inv.syslog.set(id, [
      { host: '10.20.0.15', port: 514, enabled: true },
      { host: 'siem.corp.example', port: 6514, enabled: false },
    ]);
    void makeDevice;
    w.__fake.setSession({ profileId: 'demo-basic', state: 'signed-in', authMode: 'basic', username: 'operator', signedInAt: new Date().toISOString() });
  });
  const drive = (fn: string) => page.evaluate(fn);

  await page.keyboard.press('Control+2');
  await page.getByTestId('devices-count').waitFor();
  await shot(page, `devices-${scheme}`);
  // One keystroke at a time in the search box, until the row count shows the answer.
  const times: number[] = [];
  for (const q of ['1', '12', '123', '1234', '12345', '']) {
    // A string, not a function: tsx would wrap a function with helpers the page does not have.
    const ms: number = await page.evaluate(`(async () => {
      const input = document.querySelector('[data-testid="devices-search"]');
      const count = document.querySelector('[data-testid="devices-count"]');
      const before = count.textContent;
      const t0 = performance.now();
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set.call(input, ${JSON.stringify(q)});
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((done) => {
        const check = () => (count.textContent !== before || performance.now() - t0 > 2000 ? done() : setTimeout(check, 0));
        check();
      });
      return performance.now() - t0;
    })()`);
    times.push(ms);
  }
  console.log(`search keystrokes over 20,000 devices (${scheme}): ${times.map((t) => `${Math.round(t)} ms`).join(', ')}`);
  await page.getByTestId('devices-search').fill('paris-edge-01');
  await page.getByTestId('devices-filter-status').selectOption('deployed');
  await page.waitForTimeout(200);
  await shot(page, `devices-filtered-${scheme}`);
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await page.getByRole('columnheader', { name: /Site ID/ }).getByRole('button').click();

  await page.getByTestId('device-row').nth(1).click();
  await page.getByTestId('device-details').waitFor();
  await page.getByTestId('device-details').getByRole('button', { name: /Deploy|Redeploy/ }).click();
  await page.getByTestId('task-progress').waitFor();
  await drive(`(() => { const i = window.__fake.inventory; const id = [...i.tasks.keys()].pop(); i.task(id, { state: 'in-progress', percent: 20, message: 'Staging.' }); i.task(id, { percent: 50, message: 'Configuration.' }); })()`);
  await shot(page, `device-details-${scheme}`);
  await page.keyboard.press('Escape');

  // The wizard, step by step; then a site ID conflict.
  await page.getByRole('button', { name: 'Onboard device' }).click();
  const wizard = page.getByTestId('onboarding-wizard');
  await wizard.getByRole('combobox', { name: 'Organization' }).fill('acme');
  await wizard.getByRole('option').filter({ hasText: 'Acme Retail North' }).click();
  await shot(page, `wizard-1-organization-${scheme}`);
  await page.keyboard.press('Enter');
  await wizard.getByLabel('Device name').fill('munich-edge-00001');
  await wizard.getByLabel('Serial number').fill('SN-7F3A-0042');
  await shot(page, `wizard-2-identity-${scheme}`);
  await page.keyboard.press('Enter');
  await wizard.getByRole('combobox', { name: 'Country' }).fill('germ');
  await page.keyboard.press('Enter');
  await wizard.getByLabel('Latitude').fill('48.137');
  await wizard.getByLabel('Longitude').fill('11.575');
  await shot(page, `wizard-3-location-${scheme}`);
  await page.keyboard.press('Enter');
  await wizard.getByLabel('Device group', { exact: true }).fill('retail-');
  await shot(page, `wizard-4-group-${scheme}`);
  await wizard.getByRole('button', { name: /retail-kiosk/ }).click();
  await page.keyboard.press('Enter');
  await wizard.getByTestId('wizard-review').waitFor();
  await shot(page, `wizard-5-review-${scheme}`);
  await wizard.getByRole('button', { name: 'Edit identity' }).click();
  await wizard.getByLabel('Site ID').fill('117');
  for (let i = 0; i < 3; i++) await wizard.getByRole('button', { name: /Next/ }).click();
  await wizard.getByRole('button', { name: 'Onboard' }).click();
  await wizard.getByTestId('site-id-error').waitFor();
  await shot(page, `wizard-conflict-${scheme}`);
  await wizard.getByRole('button', { name: 'Use next free' }).click();
  for (let i = 0; i < 3; i++) await wizard.getByRole('button', { name: /Next/ }).click();
  await wizard.getByRole('button', { name: 'Onboard' }).click();
  await wizard.getByRole('button', { name: 'Deploy now' }).click();
  await drive(`(() => { const i = window.__fake.inventory; const id = [...i.tasks.keys()].pop(); i.task(id, { state: 'in-progress', percent: 20, message: 'Staging.' }); i.task(id, { percent: 80, message: 'Verification.' }); })()`);
  await shot(page, `wizard-6-deploying-${scheme}`);
  await drive(`(() => { const i = window.__fake.inventory; i.finishTask([...i.tasks.keys()].pop(), 'completed'); })()`);
  await wizard.getByText('is deployed.').waitFor();
  await shot(page, `wizard-7-deployed-${scheme}`);
  await wizard.getByRole('button', { name: 'Done' }).click();

  // CSV bulk onboarding: 100 rows, 3 bad; two site IDs already taken on the node.
  const lines = ['deviceName,SiteId,orgName,serialNumber,deviceGroup,country,latitude,longitude'];
  for (let n = 1; n <= 100; n++) lines.push(`shop-${String(n).padStart(3, '0')},${n === 30 ? 5 : n === 60 ? 6 : 30000 + n},Acme Retail,${n === 49 ? '' : `SN-${n}`},retail-kiosk,${n === 9 ? 'XX' : 'DE'},48.1,${n === 76 ? '200' : '11.6'}`);
  await page.getByRole('button', { name: 'Bulk onboard (CSV)…' }).click();
  const bulk = page.getByTestId('bulk-onboarding');
  await bulk.getByTestId('csv-file').setInputFiles({ name: 'shops.csv', mimeType: 'text/csv', buffer: Buffer.from(lines.join('\r\n')) });
  await bulk.getByTestId('csv-issues').waitFor();
  await shot(page, `bulk-errors-${scheme}`);
  await bulk.getByTestId('bulk-start').click();
  await drive(`(() => { const i = window.__fake.inventory; const id = [...i.jobs.keys()].pop(); const rows = i.getJob(id).rows.slice(0, 40).map((r) => ({ ...r, outcome: 'onboarded' })); i.progressJob(id, rows); })()`);
  await shot(page, `bulk-progress-${scheme}`);
  await drive(`(() => { const i = window.__fake.inventory; i.runJob([...i.jobs.keys()].pop()); })()`);
  await bulk.getByRole('button', { name: /Retry failed rows/ }).waitFor();
  await shot(page, `bulk-results-${scheme}`);
  await bulk.getByRole('checkbox', { name: /Only failed rows/ }).check();
  await shot(page, `bulk-failed-${scheme}`);
  await bulk.getByRole('button', { name: 'Done' }).click();

  await page.keyboard.press('Control+3');
  await page.getByTestId('org-tree').waitFor();
  await page.getByTestId('org-node-Acme').click();
  await page.getByTestId('org-node-Acme Retail').click();
  await page.getByTestId('org-node-Umbrella').click();
  await shot(page, `orgs-tree-${scheme}`);
  await page.getByRole('button', { name: 'List' }).click();
  await shot(page, `orgs-list-${scheme}`);
  await page.getByRole('button', { name: 'Tree' }).click();

  await page.keyboard.press('Control+1');
  await page.getByRole('tab', { name: 'Syslog servers' }).click();
  await page.getByTestId('syslog-form').getByLabel('Host').fill('10.20.0.15');
  await page.getByTestId('syslog-form').getByRole('button', { name: 'Add server' }).click();
  await page.getByText('already receives syslog on port 514').waitFor();
  await shot(page, `syslog-${scheme}`);
  await page.getByRole('tab', { name: 'Profiles' }).click();
}

async function main() {
  if (!existsSync(path.join(dist, 'index.html'))) throw new Error('Build the renderer first: npx vite build');
  const fakeScript = await bundleFake();
  const server = await serve();
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await run('light', origin, fakeScript);
    await run('dark', origin, fakeScript);
  } finally {
    server.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
