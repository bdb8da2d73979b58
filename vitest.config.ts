import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    globals: true,
    include: ['tests/unit/**/*.test.{ts,tsx}', 'tests/integration/**/*.test.{ts,tsx}'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: on the 2-core CI machine that is one file
    // at a time, while most files wait on sockets, brokers and child processes. Two keep both busy.
    maxWorkers: 2,
    // The renderer tests' main, bundled once per run instead of loaded through tsx in every file.
    globalSetup: ['tests/unit/renderer/support/main-worker-bundle.ts'],
    env: { ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent-electron-dist' },
  },
});
