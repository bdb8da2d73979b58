/**
 * Boots the packaged main.cjs from an extracted app.asar layout in plain Node, with the stand-in
 * electron (asar-hook.cjs, preloaded), as Electron would: the module loads, then the app becomes
 * ready. Prints a JSON report on stdout: the start-up timeline, the IPC channels handled, the
 * window, what the app scheme answers for index.html, the data folder's files, the quit.
 *
 * Usage: node -r asar-hook.cjs boot-packaged.cjs   (env NB_STANDIN_APP_PATH, NB_STANDIN_DATA, NB_DLOPEN_LOG)
 */
const fs = require('node:fs');
const path = require('node:path');

const deadline = (ms, what, test) =>
  new Promise((resolve, reject) => {
    const end = Date.now() + ms;
    const tick = () => {
      let v;
      try {
        v = test();
      } catch (e) {
        return reject(e);
      }
      if (v) return resolve(v);
      if (Date.now() > end) return reject(new Error(`Timed out after ${ms} ms waiting for ${what}`));
      setTimeout(tick, 50);
    };
    tick();
  });

async function main() {
  const electron = require('electron');
  const { record, appEvents } = electron.standIn;
  const appPath = process.env.NB_STANDIN_APP_PATH;
  require(path.join(appPath, 'dist-electron', 'main.cjs'));
  electron.standIn.ready();
  await deadline(30_000, 'the main window', () => record.windows.some((w) => w.url));
  const handler = record.protocolHandlers.northbound;
  const page = handler ? await handler(new Request('northbound://app/index.html')) : undefined;
  const html = page ? await page.text() : '';
  const userData = electron.app.getPath('userData');
  const dbs = ['edr.db', 'alarms.db', 'inventory.db', 'activity.db'];
  await deadline(30_000, 'the databases', () => dbs.every((f) => fs.existsSync(path.join(userData, f))));
  // The window's own frame may call the app; another may not.
  const call = (channel, request, url = 'northbound://app/index.html') => electron.ipcMain._handlers.get(channel)({ senderFrame: { url, parent: null } }, request);
  const foreign = await call('demo.status', {}, 'https://evil.example/');
  // The demo workspace: simulators in the app, a first EDR cycle written on the writer's worker
  // thread, which loads the native module from where the package put it.
  const demo = await call('demo.open', {});
  await deadline(60_000, 'a worker thread loading better-sqlite3', () => {
    const log = fs.existsSync(process.env.NB_DLOPEN_LOG) ? fs.readFileSync(process.env.NB_DLOPEN_LOG, 'utf8') : '';
    return log.split('\n').some((l) => l.startsWith('0\t') === false && l.includes('better_sqlite3'));
  });
  const quitting = new Promise((resolve) => appEvents.once('quit-called', resolve));
  appEvents.emit('before-quit', { preventDefault() {} });
  await Promise.race([quitting, deadline(15_000, 'the app to quit', () => record.quit > 0)]);
  const report = {
    timeline: record.timeline,
    handlers: record.handlers,
    windows: record.windows,
    schemes: record.schemes,
    page: page ? { status: page.status, type: page.headers.get('content-type'), csp: page.headers.get('content-security-policy'), html: html.slice(0, 2000) } : null,
    userData,
    files: fs.readdirSync(userData).sort(),
    errors: record.errors,
    quit: record.quit,
    foreign,
    demo,
  };
  process.stdout.write(`${JSON.stringify(report)}\n`);
  process.exit(0);
}

main().catch((e) => {
  process.stderr.write(`${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
