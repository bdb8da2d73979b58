import { defineConfig } from 'vitest/config';

/** `npm run test:packaging`: the packaged app's smoke test (tests/packaging), apart from the unit run (it builds and packs). */
export default defineConfig({
  test: {
    globals: true,
    environment: 'node',
    include: ['tests/packaging/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 300_000,
    pool: 'forks',
  },
});
