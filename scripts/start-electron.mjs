#!/usr/bin/env node
/**
 * Starts the desktop app (`npm start`) after checking that Electron can run here, so a newcomer
 * gets one paragraph saying what is missing and what works instead, never a stack trace.
 *
 *   node scripts/start-electron.mjs --check        only the checks (npm start runs them before the build)
 *   node scripts/start-electron.mjs [args…]        the checks, then Electron with args (default: this project)
 *
 * Checks, in order: Electron's binary is there (downloading it once, as `require('electron')`
 * would, unless ELECTRON_OVERRIDE_DIST_PATH names where it is); it starts; better-sqlite3 loads in
 * it (a native module built for Node.js does not load in Electron); on Linux, there is a display.
 * Exit codes: 0 ok (or Electron's own code), 1 a check failed.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(path.join(root, 'package.json'));
const WEB = 'Everything but the desktop window works without it: `npm run start:web` runs the same app in your browser (demo workspace included), and `node bin/northbound.mjs --help` lists the command line.';

/** Prints the explanation as one paragraph on stderr and exits 1. */
function fail(...sentences) {
  process.stderr.write(`\n${wrap(['Northbound’s desktop app cannot start here.', ...sentences].join(' '))}\n\n`);
  process.exit(1);
}

/** Wraps at spaces, never inside a `command`, so each command can be copied from one line. */
function wrap(text, width = 100) {
  const lines = [];
  let line = '';
  for (const word of text.match(/(?:`[^`]*`|\S)+/g) ?? []) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join('\n');
}

/** The first line of a child's error output worth showing (not a stack frame, not blank). */
function firstLine(text) {
  return (
    String(text ?? '')
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l && !l.startsWith('at ') && !/^[\^~\s]+$/.test(l) && !/^(node:)?internal|\.js:\d+$/.test(l)) ?? ''
  );
}

// The executable's place inside Electron's zip, as electron/install.js names it.
const PLATFORM_PATH = { darwin: 'Electron.app/Contents/MacOS/Electron', mas: 'Electron.app/Contents/MacOS/Electron', win32: 'electron.exe' };

function locateElectron() {
  let pkgFile;
  try {
    pkgFile = require.resolve('electron/package.json');
  } catch {
    fail('Electron is not installed (node_modules/electron is missing): run `npm install` first.', WEB);
  }
  const dir = path.dirname(pkgFile);
  const version = JSON.parse(readFileSync(pkgFile, 'utf8')).version;
  const pathTxt = path.join(dir, 'path.txt');
  const rel = existsSync(pathTxt) ? readFileSync(pathTxt, 'utf8').trim() : (PLATFORM_PATH[process.platform] ?? 'electron');
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  return { dir, version, binary: override ? path.join(override, rel) : path.join(dir, 'dist', rel), override };
}

/** Node.js too old for Electron's own download tools (they declare >= 22.12). */
function nodeNote() {
  const [major, minor] = process.versions.node.split('.').map(Number);
  return major < 22 || (major === 22 && minor < 12) ? ` (Its download tools also ask for Node.js 22.12 or later; this is ${process.versions.node}.)` : '';
}

/** The Electron to run, downloaded first when it is not there yet. */
function ensureBinary(e) {
  if (existsSync(e.binary)) return e;
  if (e.override) {
    fail(
      `ELECTRON_OVERRIDE_DIST_PATH is set to ${e.override}, which holds no Electron binary (looked for ${e.binary}).`,
      `Point it at an unpacked Electron ${e.version}, or unset it to let Electron download its own.`,
      WEB,
    );
  }
  process.stderr.write(`Electron ${e.version} is not downloaded yet; downloading it once (about 100 MB)…\n`);
  const r = spawnSync(process.execPath, [path.join(e.dir, 'install.js')], { encoding: 'utf8', stdio: ['ignore', 'inherit', 'pipe'], timeout: 15 * 60_000 });
  const after = locateElectron();
  if (r.status === 0 && existsSync(after.binary)) return after;
  const why = r.error ? r.error.message : firstLine(r.stderr) || `the installer exited with code ${r.status}`;
  fail(
    `Electron ${e.version} downloads its binary from GitHub on first use, and that download failed here (${why}).${nodeNote()}`,
    WEB,
    'For the desktop app, run `npm start` again where github.com is reachable, set ELECTRON_MIRROR to a mirror you can reach, or set ELECTRON_OVERRIDE_DIST_PATH to a folder holding an unpacked Electron of that version.',
  );
}

/** Starts Electron as plain Node (ELECTRON_RUN_AS_NODE) and opens an in-memory SQLite database with the project's better-sqlite3. */
function checkRuns(e) {
  const probe = "const D = require('better-sqlite3'); new D(':memory:').close();";
  const r = spawnSync(e.binary, ['-e', probe], { cwd: root, encoding: 'utf8', timeout: 60_000, env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
  if (r.error) {
    fail(`Electron’s binary ${e.binary} is there but does not start (${r.error.code ?? r.error.message}).`, 'Delete node_modules/electron and run `npm install` to fetch it again.', WEB);
  }
  if (r.status === 0) return;
  const out = `${r.stderr}\n${r.stdout}`;
  if (/NODE_MODULE_VERSION|was compiled against a different Node\.js version/.test(out)) {
    fail(
      'better-sqlite3 (the SQLite driver, a native module) is built for Node.js, and Electron runs its own Node.js with another module version.',
      'Rebuild it for Electron with `npx electron-builder install-app-deps`; afterwards the tests, the CLI and `npm run start:web` need it built for Node.js again (`npm rebuild better-sqlite3`).',
      '`npm run start:web` runs the same app in your browser without any rebuild.',
    );
  }
  if (/better-sqlite3|better_sqlite3/.test(out)) fail(`better-sqlite3 does not load in Electron: ${firstLine(out)}`, WEB);
  fail(`Electron’s binary ${e.binary} does not start: ${firstLine(out) || `exit code ${r.status ?? r.signal}`}.`, 'On Linux this is usually a missing system library, named in that line; install it with your package manager.', WEB);
}

function checkDisplay(args) {
  if (process.platform !== 'linux' || process.env.DISPLAY || process.env.WAYLAND_DISPLAY) return;
  if (args.some((a) => a.startsWith('--ozone-platform'))) return;
  fail('There is no display (DISPLAY and WAYLAND_DISPLAY are empty): the desktop app needs a graphical session, or `xvfb-run npm start`.', '`npm run start:web` serves the same app to a browser instead.');
}

const argv = process.argv.slice(2);
const checkOnly = argv.includes('--check');
const args = argv.filter((a) => a !== '--check');
const electron = ensureBinary(locateElectron());
checkRuns(electron);
checkDisplay(args);
if (checkOnly) process.exit(0);

// From here on, as node_modules/electron/cli.js: Electron in the foreground, signals passed on.
const child = spawn(electron.binary, args.length ? args : [root], { stdio: 'inherit', windowsHide: false });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('close', (code, signal) => {
  if (code === null) {
    process.stderr.write(`Electron exited with signal ${signal}.\n`);
    process.exit(1);
  }
  process.exit(code);
});
