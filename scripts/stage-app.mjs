#!/usr/bin/env node
/**
 * The packaged app's folder (issue 23.4, 23.5): electron-builder packages `dist-app/`, not the
 * project, so the installer carries what the app loads at run time and nothing else.
 *
 *   dist-app/
 *     package.json         name, productName, version, main; dependencies: the native ones
 *     dist/renderer/**     the built renderer
 *     dist-electron/*.cjs  main, preload and the worker bundles (no source maps)
 *     node_modules/…       only the packages the bundles require at run time (traced, below),
 *                          each without its sources, build objects and test files
 *
 * What ships from node_modules is traced, not listed: every package a bundle leaves to run time
 * (esbuild's external imports: the native modules) is loaded in a child Node that records each file
 * it reads under node_modules; those packages, and no other, are copied. better-sqlite3 opens a
 * database there, so `bindings` and what it needs come along.
 *
 * The native module is rebuilt for Electron's ABI here, in dist-app (the project's own
 * node_modules keep Node's build, so `npm run dist && npm test` works). `--no-rebuild` skips it
 * (the packaging smoke test, where Electron's headers cannot be downloaded).
 *
 * Usage: node scripts/stage-app.mjs [--no-rebuild]
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import packageChecks from './package-checks.cjs';

/** Bytes under a folder (package-checks.cjs measures the packed app the same way). */
export const { folderBytes } = packageChecks;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const STAGE_DIR = path.join(root, 'dist-app');

/** Files of a shipped package that the app never loads: sources, build leftovers, tests, docs. */
const NEVER_SHIPPED = [
  /^(src|deps|docs?|tests?|test_extension|benchmark|\.github)(\/|$)/,
  // Of build/, only the addon itself (and the folders on its way).
  /^build\/(?!Release$|Release\/[^/]+\.node$)/,
  /^build\/Release\/test_extension\.node$/,
  /(^|\/)[^/]+\.(md|markdown|gyp|gypi|map|ts|c|cc|cpp|h|hpp|a|o|mk|py)$/i,
  /(^|\/)(binding\.gyp|Makefile|\.npmignore|\.eslintrc.*|\.travis\.yml)$/,
];

/**
 * Loads each package in a child Node and returns the package folders it read, in node_modules:
 * the closure of what the app needs. A required package that is not installed is optional
 * (ws's bufferutil, for one) and skipped, as the bundle's try/catch skips it at run time.
 */
export function tracePackages(names, cwd = root) {
  const script = `
    const Module = require('node:module');
    const path = require('node:path');
    const seen = new Set();
    const load = Module._load;
    const mark = (file) => { const i = file.lastIndexOf('node_modules' + path.sep); if (i < 0) return; const rest = file.slice(i + 13).split(path.sep); seen.add(rest[0].startsWith('@') ? rest[0] + '/' + rest[1] : rest[0]); };
    const resolve = Module._resolveFilename;
    Module._resolveFilename = function (...a) { const f = resolve.apply(this, a); mark(f); return f; };
    const dlopen = process.dlopen;
    process.dlopen = function (m, file, ...rest) { mark(file); return dlopen.call(this, m, file, ...rest); };
    const missing = [];
    for (const name of ${JSON.stringify(names)}) {
      let mod;
      try { mod = require(name); } catch (e) { if (e.code === 'MODULE_NOT_FOUND' && String(e.message).includes("'" + name + "'")) { missing.push(name); continue; } throw e; }
      // A native database opens one: its addon (and what finds it) is loaded lazily.
      if (name === 'better-sqlite3') new mod(':memory:').prepare('select 1').get();
    }
    process.stdout.write(JSON.stringify({ packages: [...seen].sort(), missing }));
  `;
  const r = spawnSync(process.execPath, ['-e', script], { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`Tracing the app's packages failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

function copyPackage(name, from, to) {
  const src = path.join(from, 'node_modules', name);
  const dest = path.join(to, 'node_modules', name);
  cpSync(src, dest, {
    recursive: true,
    filter: (file) => {
      const rel = path.relative(src, file).split(path.sep).join('/');
      if (rel === '') return true;
      // Nested node_modules: the trace decides what ships, from the top level.
      if (rel === 'node_modules' || rel.startsWith('node_modules/')) return false;
      return !NEVER_SHIPPED.some((re) => re.test(rel));
    },
  });
}

/** A shipped package's manifest lists only the shipped packages it depends on (npm ls stays whole). */
function trimManifest(dir, name, shipped) {
  const file = path.join(dir, 'node_modules', name, 'package.json');
  const pkg = JSON.parse(readFileSync(file, 'utf8'));
  for (const key of ['dependencies', 'optionalDependencies']) {
    if (!pkg[key]) continue;
    pkg[key] = Object.fromEntries(Object.entries(pkg[key]).filter(([dep]) => shipped.includes(dep)));
  }
  delete pkg.devDependencies;
  delete pkg.scripts;
  writeFileSync(file, JSON.stringify(pkg, null, 2));
}

/** Rebuilds the staged native modules for Electron's ABI (@electron/rebuild, in dist-app only). */
async function rebuildForElectron(stageDir, modules) {
  const { rebuild } = await import('@electron/rebuild');
  const electronVersion = JSON.parse(readFileSync(path.join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;
  console.log(`Rebuilding ${modules.join(', ')} for Electron ${electronVersion} in ${path.relative(root, stageDir)}…`);
  await rebuild({ buildPath: stageDir, electronVersion, force: true, onlyModules: modules });
}

/**
 * `rebuildWith`: how the native modules are rebuilt for Electron (default @electron/rebuild; the
 * test gives its own to see where it runs and what ships after it).
 */
export async function stageApp({ stageDir = STAGE_DIR, rebuild = true, log = console.log, rebuildWith = rebuildForElectron } = {}) {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  for (const need of ['dist/renderer/index.html', 'dist-electron/main.cjs', 'dist-electron/preload.cjs', 'dist-electron/externals.json']) {
    if (!existsSync(path.join(root, need))) throw new Error(`${need} is missing: run npm run build first.`);
  }
  rmSync(stageDir, { recursive: true, force: true });
  mkdirSync(stageDir, { recursive: true });
  cpSync(path.join(root, 'dist', 'renderer'), path.join(stageDir, 'dist', 'renderer'), { recursive: true, filter: (f) => !f.endsWith('.map') });
  cpSync(path.join(root, 'dist-electron'), path.join(stageDir, 'dist-electron'), { recursive: true, filter: (f) => !f.endsWith('.map') && !f.endsWith('externals.json') });

  // What esbuild left to run time (build-electron.mjs writes it from the bundles' metafile).
  const required = JSON.parse(readFileSync(path.join(root, 'dist-electron', 'externals.json'), 'utf8')).packages;
  const { packages, missing } = tracePackages(required);
  // A native module needs its whole source to be rebuilt; the trim comes after.
  const native = packages.filter((name) => existsSync(path.join(root, 'node_modules', name, 'binding.gyp')));
  for (const name of packages) {
    if (rebuild && native.includes(name)) cpSync(path.join(root, 'node_modules', name), path.join(stageDir, 'node_modules', name), { recursive: true, filter: (f) => !f.includes(`${path.sep}node_modules${path.sep}${name}${path.sep}node_modules`) });
    else copyPackage(name, root, stageDir);
  }
  const version = (name) => JSON.parse(readFileSync(path.join(root, 'node_modules', name, 'package.json'), 'utf8')).version;
  const manifest = {
    name: pkg.name,
    productName: pkg.productName,
    version: pkg.version,
    description: pkg.description,
    author: pkg.author ?? 'Northbound',
    license: pkg.license ?? 'UNLICENSED',
    main: 'dist-electron/main.cjs',
    // Only what the bundles require themselves; the rest ships as their dependencies.
    dependencies: Object.fromEntries(required.filter((n) => packages.includes(n)).map((n) => [n, version(n)])),
  };
  writeFileSync(path.join(stageDir, 'package.json'), JSON.stringify(manifest, null, 2));
  if (rebuild && native.length) await rebuildWith(stageDir, native);
  // Now trim the native ones as the others were.
  for (const name of native) {
    if (!rebuild) continue;
    const tmp = path.join(stageDir, '.trim', 'node_modules', name);
    cpSync(path.join(stageDir, 'node_modules', name), tmp, { recursive: true });
    rmSync(path.join(stageDir, 'node_modules', name), { recursive: true, force: true });
    copyPackage(name, path.join(stageDir, '.trim'), stageDir);
  }
  rmSync(path.join(stageDir, '.trim'), { recursive: true, force: true });
  for (const name of packages) trimManifest(stageDir, name, packages);
  writeFileSync(path.join(stageDir, 'shipped-packages.json'), JSON.stringify({ required, packages, optionalMissing: missing }, null, 2));
  log(`dist-app: ${packages.length} package(s) from node_modules (${packages.join(', ') || 'none'}); ${(folderBytes(stageDir) / 1024 / 1024).toFixed(1)} MB in all.${missing.length ? ` Optional, not installed: ${missing.join(', ')}.` : ''}`);
  return { required, packages, missing, stageDir };
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    await stageApp({ rebuild: !process.argv.includes('--no-rebuild') });
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
