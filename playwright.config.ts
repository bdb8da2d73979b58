import { defineConfig } from '@playwright/test';

// The walks of a minute or so start first and the short tests fill in around them: started last
// (zta.spec.ts comes last by name), a long walk ran alone at the end while the other worker idled.
const LONG = /[\\/](zta|a11y|overview|alarms|tour|screens|layout|zta-report|room-to-read|team-fleet)\.spec\.ts$/;

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  // Every test has its own app: data folder, ports, simulators (support/fixtures.ts), so the tests
  // of a file run side by side too; the slowest file (a11y) no longer sets the pace alone.
  workers: 2,
  fullyParallel: true,
  retries: 0,
  reporter: [['list']],
  globalSetup: './tests/e2e/global-setup.ts',
  projects: [
    { name: 'long', testMatch: LONG },
    { name: 'short', testIgnore: LONG },
  ],
  use: {
    headless: true,
    // A click or fill that cannot happen fails in its own words within 15 s, not at the test's
    // timeout with the step it hung on hidden behind a later one.
    actionTimeout: 15_000,
    // No trace by default: recording one (screencast frames and DOM snapshots at every action) took
    // about a third of the run's CPU, 5.5 min against 3.7 min on 2 cores, and CI keeps no artifacts.
    // To see a failure step by step: npx playwright test <file> --trace retain-on-failure.
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
