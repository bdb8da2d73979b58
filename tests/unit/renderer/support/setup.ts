/**
 * The renderer project's setup (vitest.config.ts): it runs before every test file, in the worker
 * that runs the file. The renderer files share their worker, so their imported modules (React,
 * the app, this harness and its main in a worker thread) load once per worker, not once per file;
 * what a module registered at import would then only be registered for the first file. What every
 * test needs after it is therefore registered here: the window's DOM unmounted, the routers of
 * the test stop watching the address, and every main and simulator the test started stops.
 */
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { closeAll } from './main-bridge';
import { destroyHistories } from './render';

afterEach(async () => {
  cleanup();
  destroyHistories();
  await closeAll();
});
