/**
 * `npm start`'s launcher (scripts/start-electron.mjs) as a newcomer meets it: where Electron is
 * missing, cannot be downloaded or cannot run, one paragraph naming the cause and `npm run start:web`,
 * exit code 1, no stack trace. Stand-in Electron binaries (shell scripts in a temporary folder,
 * reached through ELECTRON_OVERRIDE_DIST_PATH) play the cases this machine cannot produce.
 */
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const launcher = path.resolve('scripts/start-electron.mjs');
const root = path.resolve('.');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function run(args: string[], env: Record<string, string | undefined>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const merged: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...env })) if (v !== undefined) merged[k] = v;
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [launcher, ...args], { env: merged });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A folder holding an executable `electron` with the given shell body. */
function fakeElectron(body: string, mode = 0o755): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-fake-electron-'));
  dirs.push(dir);
  const file = path.join(dir, 'electron');
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, mode);
  return dir;
}

/** As Electron does under ELECTRON_RUN_AS_NODE: run the probe with this Node, whose better-sqlite3 build loads. */
const asNode = `if [ "$ELECTRON_RUN_AS_NODE" = "1" ]; then exec "${process.execPath}" "$@"; fi`;

/** Checks the paragraph's shape and returns it on one line (it is wrapped at 100 columns). */
const explains = (stderr: string): string => {
  expect(stderr).not.toMatch(/^\s+at /m); // no stack frame
  const text = stderr.replace(/\s+/g, ' ').trim();
  expect(text).toContain('Northbound’s desktop app cannot start here.');
  return text;
};

describe('npm start launcher', () => {
  it('ELECTRON_OVERRIDE_DIST_PATH pointing to a missing folder: says so, points to npm run start:web, exits 1', async () => {
    // vitest.config.ts sets ELECTRON_OVERRIDE_DIST_PATH to a folder that does not exist.
    expect(existsSync(process.env.ELECTRON_OVERRIDE_DIST_PATH!)).toBe(false);
    const r = await run(['--check'], {});
    expect(r.code).toBe(1);
    const text = explains(r.stderr);
    expect(text).toContain(`ELECTRON_OVERRIDE_DIST_PATH is set to ${process.env.ELECTRON_OVERRIDE_DIST_PATH}, which holds no Electron binary`);
    expect(text).toContain('`npm run start:web`');
  });

  const dist = (() => {
    const txt = path.resolve('node_modules/electron/path.txt');
    return existsSync(txt) ? path.resolve('node_modules/electron/dist', readFileSync(txt, 'utf8')) : undefined;
  })();
  it.skipIf(dist !== undefined && existsSync(dist))('a download that fails (an unreachable mirror) is named, with the way around it', async () => {
    const port = await closedPort();
    const cache = mkdtempSync(path.join(os.tmpdir(), 'nb-electron-cache-'));
    dirs.push(cache);
    const r = await run(['--check'], { ELECTRON_OVERRIDE_DIST_PATH: undefined, ELECTRON_MIRROR: `http://127.0.0.1:${port}/`, electron_config_cache: cache });
    expect(r.code).toBe(1);
    const text = explains(r.stderr);
    expect(text).toMatch(/downloads its binary from GitHub on first use, and that download failed here \(.+\)/);
    expect(text).toContain('`npm run start:web`');
    expect(text).toContain('ELECTRON_MIRROR');
  });

  it('a binary that is there and works: runs it on this project and passes its exit code through', async () => {
    const dir = fakeElectron(`${asNode}\necho "electron-args: $*"\nexit 7`);
    const r = await run([], { ELECTRON_OVERRIDE_DIST_PATH: dir, DISPLAY: ':99' });
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe(`electron-args: ${root}`);
    expect(r.code).toBe(7);
    const check = await run(['--check'], { ELECTRON_OVERRIDE_DIST_PATH: dir, DISPLAY: ':99' });
    expect(check.code).toBe(0);
    expect(check.stdout).toBe(''); // --check does not start the app
  });

  it('better-sqlite3 built for Node.js, not Electron: says how to rebuild, and that start:web needs none', async () => {
    const dir = fakeElectron(
      [
        'if [ "$ELECTRON_RUN_AS_NODE" = "1" ]; then',
        `  echo "Error: The module '${root}/node_modules/better-sqlite3/build/Release/better_sqlite3.node'" >&2`,
        '  echo "was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 140." >&2',
        '  echo "    at Module._extensions..node (node:internal/modules/cjs/loader:1586:18)" >&2',
        '  exit 1',
        'fi',
        'exit 0',
      ].join('\n'),
    );
    const r = await run(['--check'], { ELECTRON_OVERRIDE_DIST_PATH: dir, DISPLAY: ':99' });
    expect(r.code).toBe(1);
    const text = explains(r.stderr);
    expect(text).toContain('better-sqlite3 (the SQLite driver, a native module) is built for Node.js');
    expect(text).toContain('`npx electron-builder install-app-deps`');
    expect(text).toContain('`npm run start:web`');
  });

  it('a binary that cannot be executed, and a Linux session without a display, are each explained', async () => {
    const broken = fakeElectron('exit 0', 0o644);
    const r = await run(['--check'], { ELECTRON_OVERRIDE_DIST_PATH: broken, DISPLAY: ':99' });
    expect(r.code).toBe(1);
    const text = explains(r.stderr);
    expect(text).toMatch(/is there but does not start \(EACCES\)/);

    const works = fakeElectron(`${asNode}\nexit 0`);
    const headless = await run(['--check'], { ELECTRON_OVERRIDE_DIST_PATH: works, DISPLAY: undefined, WAYLAND_DISPLAY: undefined });
    if (process.platform === 'linux') {
      expect(headless.code).toBe(1);
      const said = explains(headless.stderr);
      expect(said).toContain('There is no display');
      expect(said).toContain('`npm run start:web`');
    } else expect(headless.code).toBe(0);
  });
});

/** A port on 127.0.0.1 that nothing listens on (taken, then released). */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}
