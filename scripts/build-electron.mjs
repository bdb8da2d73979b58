#!/usr/bin/env node
/**
 * Bundles the Electron main process and the preload with esbuild:
 *   electron/main.ts    -> dist-electron/main.cjs     (everything in; electron and native modules external)
 *   electron/preload.ts -> dist-electron/preload.cjs  (sandboxed: may only require 'electron')
 *   the worker threads' entries (WORKER_ENTRIES) -> dist-electron/<name>.cjs, beside main.cjs, where
 *     electron/store/sql-worker.ts finds them
 * and copies the window icon to dist-electron/icon.png.
 * Usage: node scripts/build-electron.mjs [--watch]
 */
import { build, context } from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

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
  'edr-writer-thread': 'electron/store/edr-writer-thread.ts',
  'checkpointer-thread': 'electron/store/checkpointer-thread.ts',
  'alarms-writer-thread': 'electron/store/alarms-writer-thread.ts',
};

const targets = [
  {
    ...common,
    entryPoints: { main: 'electron/main.ts', ...WORKER_ENTRIES },
    outdir,
    outExtension: { '.js': '.cjs' },
    external: NATIVE_EXTERNALS,
    banner: { js: importMetaBanner },
    define: { ...common.define, 'import.meta.url': '__importMetaUrl', 'import.meta.dirname': '__importMetaDirname' },
    metafile: true,
  },
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
    report(await Promise.all(targets.map((options) => build(options))));
    checkPreload();
  } catch (e) {
    console.error(e instanceof Error ? e.message : e);
    process.exit(1);
  }
}
