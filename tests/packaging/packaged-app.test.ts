/**
 * The packaged app starts (issue 23, must show): built, staged (scripts/stage-app.mjs), packed by
 * electron-builder for `--linux dir` against a stand-in Electron folder (no download), then its
 * main.cjs loaded from the app.asar layout in plain Node with a stand-in `electron` that enforces
 * Electron's ready ordering (boot-packaged.cjs). Run by `npm run test:packaging` (a part of npm test).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as Asar from '@electron/asar';
import { channelNames } from '../../shared/contract';
import { stageApp } from '../../scripts/stage-app.mjs';
import { packLinuxDir } from '../../scripts/pack-dir.mjs';

const root = path.resolve(__dirname, '../..');
const require = createRequire(import.meta.url);
const asar = require('@electron/asar') as typeof Asar;
const { checkPackedApp } = require('../../scripts/package-checks.cjs') as { checkPackedApp(resources: string, shipped: string): { packages: string[]; payloadBytes: number } };
const nodeAddon = path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const hash = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

let tmp: string;
let resources: string;
let stageDir: string;
let addonBefore: string;
let staged: { required: string[]; packages: string[] };

/** An Electron folder as electron-builder copies it: the binary (a script here), its version, resources. */
function standInElectronDist(dir: string): string {
  mkdirSync(path.join(dir, 'resources'), { recursive: true });
  writeFileSync(path.join(dir, 'electron'), '#!/bin/sh\necho "stand-in Electron: the packaging test loads main.cjs in Node"\n');
  chmodSync(path.join(dir, 'electron'), 0o755);
  writeFileSync(path.join(dir, 'version'), JSON.parse(readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version);
  return dir;
}

const run = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { cwd: root, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${[cmd, ...args].join(' ')} failed:\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'nb-pack-'));
  addonBefore = hash(nodeAddon);
  if (!existsSync(path.join(root, 'dist', 'renderer', 'index.html'))) run('npm', ['run', '--silent', 'build:renderer']);
  run(process.execPath, ['scripts/build-electron.mjs']);
  stageDir = path.join(tmp, 'dist-app');
  staged = await stageApp({ stageDir, rebuild: false, log: () => undefined });
  const { appOutDir } = await packLinuxDir({ electronDist: standInElectronDist(path.join(tmp, 'electron-dist')), output: path.join(tmp, 'release'), appDir: stageDir });
  resources = path.join(appOutDir, 'resources');
}, 240_000);
afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe('the packaged app', () => {
  it('ships from node_modules exactly what main.cjs requires at run time, without sources or build files (issue 23.4)', () => {
    expect(staged.required).toEqual(JSON.parse(readFileSync(path.join(root, 'dist-electron', 'externals.json'), 'utf8')).packages);
    const packed = checkPackedApp(resources, path.join(stageDir, 'shipped-packages.json'));
    expect(packed.packages).toEqual(staged.packages);
    expect(packed.packages).toContain('better-sqlite3');
    // Nothing bundled ships twice: none of the app's JavaScript dependencies is in the asar.
    for (const bundled of ['react', 'zod', 'undici', 'tsx', 'esbuild', 'lucide-react', 'amqplib']) expect(packed.packages).not.toContain(bundled);
    const files = asar.listPackage(path.join(resources, 'app.asar'), { isPack: false }).map((f) => f.split(path.sep).join('/'));
    expect(files.filter((f) => /\/(src|deps)\/|\.(c|cc|h|gyp|map)$|test_extension|\/obj(\.target)?\//.test(f))).toEqual([]);
    expect(files).toContain('/node_modules/better-sqlite3/build/Release/better_sqlite3.node');
    // The addon itself is unpacked (a .node cannot load from inside an archive).
    expect(existsSync(path.join(resources, 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'))).toBe(true);
    expect(packed.payloadBytes).toBeLessThan(20 * 1024 * 1024);
  });

  it('refuses a packed app that carries a package nothing requires', () => {
    const shipped = JSON.parse(readFileSync(path.join(stageDir, 'shipped-packages.json'), 'utf8')) as { packages: string[] };
    const fewer = path.join(tmp, 'fewer.json');
    writeFileSync(fewer, JSON.stringify({ ...shipped, packages: shipped.packages.filter((p) => p !== 'bindings') }));
    expect(() => checkPackedApp(resources, fewer)).toThrow(/ships bindings, which nothing requires/);
  });

  it('starts from the app.asar layout: scheme before ready, index.html served, the databases open, one handler per channel, the demo opens and a worker loads better-sqlite3 from app.asar.unpacked', () => {
    // The layout Electron presents: app.asar as a folder (its unpacked files only in app.asar.unpacked).
    const layout = path.join(tmp, 'layout');
    run('cp', ['-a', resources, layout]);
    renameSync(path.join(layout, 'app.asar'), path.join(layout, 'app.asar.pack'));
    const archive = path.join(layout, 'app.asar.pack');
    renameSync(path.join(layout, 'app.asar.unpacked'), `${archive}.unpacked`);
    asar.extractAll(archive, path.join(layout, 'app.asar'));
    renameSync(`${archive}.unpacked`, path.join(layout, 'app.asar.unpacked'));
    // Electron reads what the archive marks unpacked from app.asar.unpacked while the module keeps
    // its path inside app.asar (so it finds its own dependencies there): here, the topmost such
    // entries are links to it, and Node keeps the links' paths (--preserve-symlinks).
    const unpacked = new Set(asar.listPackage(archive, { isPack: false }).filter((f) => (asar.statFile(archive, f.replace(/^[\\/]/, ''), false) as { unpacked?: boolean }).unpacked));
    const topmost = [...unpacked].filter((f) => !unpacked.has(path.dirname(f)));
    expect(topmost.length).toBeGreaterThan(0);
    for (const f of topmost) {
      rmSync(path.join(layout, 'app.asar', f), { recursive: true, force: true });
      symlinkSync(path.join(layout, 'app.asar.unpacked', f), path.join(layout, 'app.asar', f));
    }

    const data = path.join(tmp, 'data');
    const dlopenLog = path.join(tmp, 'dlopen.log');
    const r = spawnSync(process.execPath, ['--preserve-symlinks', '-r', path.join(__dirname, 'asar-hook.cjs'), path.join(__dirname, 'boot-packaged.cjs')], {
      cwd: tmp,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, NB_STANDIN_APP_PATH: path.join(layout, 'app.asar'), NB_STANDIN_DATA: data, NB_DLOPEN_LOG: dlopenLog, ELECTRON_OVERRIDE_DIST_PATH: undefined, NORTHBOUND_PASSPHRASE: undefined },
    });
    expect(r.stderr.split('\n').filter((l) => /Error|FATAL/.test(l)), r.stderr).toEqual([]);
    expect(r.status, r.stderr).toBe(0);
    const report = JSON.parse(r.stdout.trim().split('\n').at(-1)!) as {
      timeline: string[];
      handlers: string[];
      windows: Array<{ url?: string }>;
      page: { status: number; type: string; csp: string; html: string } | null;
      userData: string;
      files: string[];
      errors: string[];
      quit: number;
      foreign: unknown;
      demo: unknown;
    };
    const t = report.timeline;
    for (const before of ['registerSchemesAsPrivileged', 'enableSandbox', 'requestSingleInstanceLock']) expect(t).toContain(`${before}@before`);
    for (const after of ['protocol.handle', 'session.defaultSession', 'BrowserWindow']) expect(t).toContain(`${after}@ready`);
    expect(t.filter((e) => e.endsWith('@before') && /protocol\.handle|session|BrowserWindow|Notification|dialog/.test(e))).toEqual([]);
    expect([...report.handlers].sort()).toEqual([...channelNames].sort());
    expect(report.windows[0]?.url).toBe('northbound://app/index.html');
    expect(report.page).toMatchObject({ status: 200, type: expect.stringContaining('text/html') });
    expect(report.page!.csp).toContain("default-src 'self'");
    expect(report.page!.html).toContain('<div id="root">');
    expect(report.userData).toBe(path.join(data, 'config', 'Northbound'));
    for (const db of ['edr.db', 'alarms.db', 'inventory.db', 'activity.db']) expect(report.files).toContain(db);
    expect(report.errors).toEqual([]);
    expect(report.quit).toBeGreaterThan(0);
    // IPC checks the sender as packaged: the window's frame may call, another is refused.
    expect(report.foreign).toMatchObject({ ok: false, error: { code: 'request.forbidden' } });
    expect(report.demo).toMatchObject({ ok: true, value: { running: true } });
    const loads = readFileSync(dlopenLog, 'utf8').trim().split('\n').map((l) => l.split('\t') as [string, string]);
    const addon = path.join(layout, 'app.asar.unpacked', 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
    expect(loads.filter(([, file]) => file.includes('better_sqlite3')).every(([, file]) => file === addon)).toBe(true);
    expect(loads.some(([thread]) => thread !== '0')).toBe(true);
    expect(loads.some(([thread]) => thread === '0')).toBe(true);
  });

  it('leaves the project’s own better-sqlite3 build alone: packaging never rebuilds it for Electron (issue 23.5)', () => {
    expect(hash(nodeAddon)).toBe(addonBefore);
  });

  it('rebuilds the native module in the staged copy, from its whole source, and ships what the rebuild made, trimmed (issue 23.5)', async () => {
    const dir = path.join(tmp, 'dist-app-rebuilt');
    const seen: Array<{ at: string; modules: string[]; hasSources: boolean }> = [];
    // Electron's headers cannot be downloaded here: this rebuild marks the addon it "built".
    const rebuildWith = async (at: string, modules: string[]) => {
      seen.push({ at, modules, hasSources: existsSync(path.join(at, 'node_modules', 'better-sqlite3', 'deps')) && existsSync(path.join(at, 'node_modules', 'better-sqlite3', 'src')) });
      const addon = path.join(at, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
      writeFileSync(addon, Buffer.concat([readFileSync(addon), Buffer.from('built for Electron')]));
    };
    await stageApp({ stageDir: dir, rebuild: true, log: () => undefined, rebuildWith });
    expect(seen).toEqual([{ at: dir, modules: ['better-sqlite3'], hasSources: true }]);
    const shipped = path.join(dir, 'node_modules', 'better-sqlite3');
    expect(readFileSync(path.join(shipped, 'build', 'Release', 'better_sqlite3.node')).subarray(-18).toString()).toBe('built for Electron');
    for (const gone of ['deps', 'src', 'binding.gyp', path.join('build', 'Release', 'obj'), path.join('build', 'Release', 'test_extension.node')]) expect(existsSync(path.join(shipped, gone))).toBe(false);
    expect(hash(nodeAddon)).toBe(addonBefore);
  });
});
