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
    // The renderer tests' main, bundled once per run instead of loaded through tsx in every file.
    globalSetup: ['tests/unit/renderer/support/main-worker-bundle.ts'],
    env: { ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent-electron-dist' },
  },
});
