import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

const renderer = 'tests/unit/renderer/**/*.test.{ts,tsx}';

export default defineConfig({
  plugins: [react()],
  test: {
    globals: true,
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on the 2-core CI machine that is one file
    // at a time, while most files wait on sockets, brokers and child processes. Three keep both
    // cores busy while a file waits (the fleet's outage tests hold a database stopped for 30 s).
    maxWorkers: 3,
    env: { ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent-electron-dist' },
    projects: [
      {
        extends: true,
        test: {
          name: 'main',
          // A worker runs file after file without reloading the modules they share (the app, the
          // simulators, zod, undici): about half of each file's start. Each test starts its own
          // app, simulators and data folder, so no state crosses files (a shuffled run checks).
          isolate: false,
          include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.{ts,tsx}'],
          // The shared RabbitMQ broker is started by the first file that needs it and stopped here.
          globalSetup: ['tests/support/rabbitmq-teardown.ts'],
          exclude: [renderer],
        },
      },
      {
        // The window's tests share their worker: React, the app, testing-library and the real main
        // in its worker thread load once per worker, not once per file (about 2-3 s a file). What
        // each test needs after it is in setupFiles, run before every file; each test renders a
        // fresh app on a fresh main, and resets the UI store (support/render.tsx).
        extends: true,
        test: {
          name: 'renderer',
          include: [renderer],
          // Their main, bundled once per run instead of loaded through tsx in every file.
          globalSetup: ['tests/unit/renderer/support/main-worker-bundle.ts'],
          isolate: false,
          setupFiles: ['tests/unit/renderer/support/setup.ts'],
          env: { RTL_SKIP_AUTO_CLEANUP: 'true' },
        },
      },
    ],
  },
});
