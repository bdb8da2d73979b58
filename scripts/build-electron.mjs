#!/usr/bin/env node
/**
 * Bundles the Electron main process and the preload with esbuild:
 *   electron/main.ts    -> dist-electron/main.cjs     (everything in; electron and native modules external)
 *   electron/preload.ts -> dist-electron/preload.cjs  (sandboxed: may only require 'electron')
 *   the worker threads' entries (WORKER_ENTRIES) -> dist-electron/<name>.cjs, beside main.cjs, where
 *     electron/store/sql-worker.ts finds them
 * and copies the window icon to dist-electron/icon.png. main.cjs carries the simulators' plain
 * entry only (the demo workspace): a build that took in their test-only fault switches fails.
 * Usage: node scripts/build-electron.mjs [--watch]
 */
import { build, context } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist-electron');
const watch = process.argv.includes('--watch');

/**
 * Never bundled: Electron itself, and modules with native (.node) parts, which electron-builder
 * rebuilds for Electron's ABI (npmRebuild) and ships from node_modules. The optional ws helpers
 * are here so their `require` in a try/catch stays a runtime lookup.
 */
export const NATIVE_EXTERNALS = ['electron', 'better-sqlite3', 'bufferutil', 'utf-8-validate', 'fsevents', 'cpu-features'];

// ESM-only dependencies read import.meta.url; in a CommonJS bundle it comes from __filename.
const importMetaBanner = "const __importMetaUrl = require('node:url').pathToFileURL(__filename).href; const __importMetaDirname = __dirname;";

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: ['node20'],
  sourcemap: true,
  logLevel: 'warning',
  absWorkingDir: root,
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
};

/** Worker threads main starts (electron/store/sql-worker.ts `workerEntry`): each its own bundle. */
export const WORKER_ENTRIES = {
  'edr-writer-thread': 'electron/edr/store/edr-writer-thread.ts',
  'checkpointer-thread': 'electron/store/checkpointer-thread.ts',
  'alarms-writer-thread': 'electron/alarms/store/alarms-writer-thread.ts',
  'inventory-writer-thread': 'electron/inventory/store/inventory-writer-thread.ts',
  'falcon-parse-thread': 'electron/edr/falcon/falcon-parse-thread.ts',
};

/** The main bundle's options (exported for tests/unit/app/bundle.test.ts, which builds it in memory). */
export const mainTarget = {
  ...common,
  entryPoints: { main: 'electron/main.ts' },
  outdir,
  outExtension: { '.js': '.cjs' },
  external: NATIVE_EXTERNALS,
  banner: { js: importMetaBanner },
  define: { ...common.define, 'import.meta.url': '__importMetaUrl', 'import.meta.dirname': '__importMetaDirname' },
  metafile: true,
};

/** The simulators' test-only code (fault switches): never in the desktop bundle (issue 21.3). */
export const TEST_ONLY_SOURCES = /^packages\/simulators\/src\/testing\//;

/** The inputs of a bundle that are test-only; empty for a good build. */
export function testOnlyInputs(metafile) {
  return Object.keys(metafile?.inputs ?? {}).filter((input) => TEST_ONLY_SOURCES.test(input.split(path.sep).join('/')));
}

const targets = [
  mainTarget,
  { ...mainTarget, entryPoints: WORKER_ENTRIES },
  {
    ...common,
    entryPoints: { preload: 'electron/preload.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    external: ['electron'],
    // The contract brings zod along (for the channel names); minified it parses faster at window start.
    minify: true,
    metafile: true,
  },
];
/** A sandboxed preload gets a require() that knows only a few modules; anything else fails at window start. */
function checkPreload() {
  const code = readFileSync(path.join(outdir, 'preload.cjs'), 'utf8');
  const required = [...code.matchAll(/\brequire\(\s*["']([^"']+)["']\s*\)/g)].map((m) => m[1]);
  const bad = [...new Set(required)].filter((m) => m !== 'electron');
  if (bad.length > 0) throw new Error(`preload.cjs requires ${bad.join(', ')}; a sandboxed preload may only require 'electron'.`);
}

function copyIcon() {
  const icon = path.join(root, 'assets', 'icon.png');
  if (existsSync(icon)) copyFileSync(icon, path.join(outdir, 'icon.png'));
  else console.warn('assets/icon.png is missing: the window has no icon.');
}

function report(results) {
  for (const r of results) {
    for (const [file, meta] of Object.entries(r.metafile?.outputs ?? {})) {
      if (file.endsWith('.cjs')) console.log(`${path.relative(root, path.resolve(root, file))}  ${(meta.bytes / 1024).toFixed(0)} KiB`);
    }
  }
}

/**
 * The packages the bundles leave to run time (esbuild's external imports; node's own modules and
 * electron aside), written to dist-electron/externals.json for scripts/stage-app.mjs.
 */
export function externalPackages(results) {
  const names = new Set();
  for (const r of results) {
    for (const [file, meta] of Object.entries(r.metafile?.outputs ?? {})) {
      if (!file.endsWith('.cjs') || file.endsWith('preload.cjs')) continue;
      for (const i of meta.imports) {
        if (!i.external || i.path.startsWith('node:') || i.path === 'electron' || builtinModules.includes(i.path)) continue;
        names.add(i.path.startsWith('@') ? i.path.split('/').slice(0, 2).join('/') : i.path.split('/')[0]);
      }
    }
  }
  return [...names].sort();
}

/** main.cjs must not carry the simulators' fault switches (the demo imports @northbound/simulators/demo only). */
function checkNoTestOnlyCode(results) {
  const bad = results.flatMap((r) => testOnlyInputs(r.metafile));
  if (bad.length > 0) throw new Error(`The desktop bundle took in test-only simulator code: ${bad.join(', ')}. Product code imports @northbound/simulators/demo only.`);
}

async function main() {
  rmSync(outdir, { recursive: true, force: true });
  mkdirSync(outdir, { recursive: true });
  copyIcon();

  if (watch) {
    for (const options of targets) {
      const ctx = await context(options);
      await ctx.watch();
    }
    console.log('Watching electron/ for changes...');
  } else {
    try {
      const results = await Promise.all(targets.map((options) => build(options)));
      report(results);
      checkPreload();
      checkNoTestOnlyCode(results);
      writeFileSync(path.join(outdir, 'externals.json'), `${JSON.stringify({ packages: externalPackages(results) }, null, 2)}\n`);
    } catch (e) {
      console.error(e instanceof Error ? e.message : e);
      process.exit(1);
    }
  }
}

// Run as a script (not when a test imports the options above).
if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) await main();
