/**
 * Preloaded (`node -r`) into the packaged app's Node process and its worker threads: what
 * Electron does that plain Node does not, for the app.asar layout the test extracted —
 * `require('electron')` is the stand-in, a file the asar keeps unpacked is found in
 * `app.asar.unpacked` (Electron redirects those reads), and every native addon loaded is logged
 * (thread and real path) to NB_DLOPEN_LOG, so the test sees where better-sqlite3 came from.
 */
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { threadId } = require('node:worker_threads');

const standIn = path.join(__dirname, 'stand-in-electron.cjs');
const load = Module._load;
Module._load = function (request, ...rest) {
  return load.call(this, request === 'electron' ? standIn : request, ...rest);
};

const marker = `${path.sep}app.asar${path.sep}`;
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  try {
    return resolve.call(this, request, ...rest);
  } catch (e) {
    if (e.code !== 'MODULE_NOT_FOUND' || !path.isAbsolute(request) || !request.includes(marker)) throw e;
    return resolve.call(this, request.replace(marker, `${path.sep}app.asar.unpacked${path.sep}`), ...rest);
  }
};

const dlopen = process.dlopen;
process.dlopen = function (module, filename, ...rest) {
  // Where the file really is (the layout links unpacked entries into app.asar).
  if (process.env.NB_DLOPEN_LOG) fs.appendFileSync(process.env.NB_DLOPEN_LOG, `${threadId}\t${fs.realpathSync(filename)}\n`);
  return dlopen.call(this, module, filename, ...rest);
};
