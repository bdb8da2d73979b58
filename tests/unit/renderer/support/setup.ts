/**
 * The renderer project's setup (vitest.config.ts): it runs before every test file, in the worker
 * that runs the file. The renderer files share their worker, so their imported modules (React,
 * the app, this harness and its main in a worker thread) load once per worker, not once per file;
 * what a module registered at import would then only be registered for the first file. What every
 * test needs after it is therefore registered here: the window's DOM unmounted, its toasts
 * dismissed, the routers of the test stop watching the address, and every main and simulator the
 * test started stops.
 */
import { cleanup } from '@testing-library/react';
import { toast } from 'sonner';
import { afterEach } from 'vitest';
import { closeAll } from './main-bridge';
import { destroyHistories } from './render';

afterEach(async () => {
  cleanup();
  // sonner keeps its toasts in a module the files of a worker share: one left by a test would show
  // in the next file's window (a syslog test's "Added syslog server …" in the team-offline test's).
  toast.dismiss();
  destroyHistories();
  await closeAll();
});
