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

/** What the injected script leaves on window for the walk-through to drive. */
type PreviewWindow = Window & { __fake: FakeBridge; __kit: { makeProfile: typeof makeProfile; FP_A: typeof FP_A; FP_B: string } };

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../../..');
const dist = path.join(root, 'dist/renderer');
const outDir = process.argv[2] ?? '/tmp';

const MIME: Record<string, string> = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml', '.map': 'application/json' };

async function bundleFake(): Promise<string> {
  const fake = path.join(root, 'tests/unit/renderer/support/fake-bridge.ts').replace(/\\/g, '/');
  const result = await build({
    stdin: {
      contents: `
        import { FakeBridge, makeProfile, FP_A, FP_B } from '${fake}';
        const bridge = new FakeBridge({ demoDelayMs: 1500 });
        window.northbound = bridge;
        window.__fake = bridge;
        window.__kit = { makeProfile, FP_A, FP_B };
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

  await page.keyboard.press('Control+4');
  await shot(page, `alarms-${scheme}`);
  await page.keyboard.press('Control+7');
  await shot(page, `settings-${scheme}`);
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
