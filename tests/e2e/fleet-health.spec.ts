/**
 * The Fleet card and the lost database in Chromium (issue 25.4, 25.1; C-89, C-90): a console joined
 * to a team's PostgreSQL (a private cluster set up by team init; the fleet's rows written as its
 * workers and collector write them) shows on its Overview the workers alive and not, a lease that
 * lapsed, a connector due with no worker, the collector's lag, the database and the broker; its
 * links reach the Connectors page by keyboard. With the cluster stopped every page shows one
 * banner with the time of the last read and no toast; started again, the banner goes.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { teamInit, TEAM_ROLES } from '../../electron/app/team';
import { storeMigrations } from '../../electron/cli-team';
import { FleetConnectors } from '../../electron/edr/fleet/fleet-connectors';
import { openPostgres } from '../../electron/store/postgres';
import { startPostgres, type PgCluster } from '../support/pg-cluster';
import { expect, test } from './support/fixtures';

let cluster: PgCluster;
let dir: string;

const falcon = (name: string, tenantId: string) => ({ vendor: 'falcon', name, tenantId, clientId: '0123456789abcdef0123456789abcdef', clientSecret: 's3cret', cloudRegion: 'us-1', pollIntervalMinutes: 10 });

test.beforeAll(async () => {
  cluster = await startPostgres();
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-e2e-fleet-'));
  const admin = openPostgres({ url: cluster.url, max: 1 });
  await admin.query('CREATE DATABASE northbound');
  await admin.end();
  const owner = openPostgres({ url: cluster.urlOf('northbound'), max: 2 });
  try {
    await teamInit({ pool: owner, keyFile: path.join(dir, 'worker.key'), migrations: await storeMigrations() });
    await owner.query(`CREATE ROLE alice LOGIN IN ROLE ${TEAM_ROLES.console}`);
    const [a, b, c] = await new FleetConnectors(owner).registerBulk({
      version: 1,
      connectors: [falcon('Falcon EU', 'a1b2c3d4e5f60718293a4b5c6d7e8f90'), falcon('Falcon US', 'b1b2c3d4e5f60718293a4b5c6d7e8f90'), falcon('Falcon APAC', 'c1b2c3d4e5f60718293a4b5c6d7e8f90')],
    });
    // As the workers write them: one alive (heartbeat now, lease 60 s), one silent for 2 minutes holding a lapsed lease.
    await owner.query("INSERT INTO fleet_workers (id, host, pid, concurrency, lease_seconds, heartbeat_at, running) VALUES ('worker-1', 'poller-a', 101, 8, 60, now(), '{x}'), ('worker-2', 'poller-b', 202, 8, 60, now() - interval '2 minutes', '{}')");
    await owner.query("UPDATE fleet_claims SET due_at = now() + interval '8 minutes', last_worker = 'worker-1', last_status = 'completed', last_finished_at = now() WHERE connector_id = $1", [a!.id]);
    await owner.query("UPDATE fleet_claims SET worker = 'worker-2', claimed_at = now() - interval '3 minutes', lease_until = now() - interval '2 minutes' WHERE connector_id = $1", [b!.id]);
    await owner.query("UPDATE fleet_claims SET due_at = now() - interval '4 minutes', last_worker = 'worker-2' WHERE connector_id = $1", [c!.id]);
    // A collector, as `alarms follow --database-url` beats.
    await owner.query("INSERT INTO fleet_collectors (id, source, host, pid, every_seconds, state, connected, lag_ms, backlog, last_stored_at) VALUES ('collector-a:77', 'node:director.example:9182', 'collector-a', 77, 5, 'live', true, 180, 0, now() - interval '2 seconds')");
  } finally {
    await owner.end();
  }
});

test.afterAll(async () => {
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('the Fleet card of a joined console, and one banner on every page while its database is away', async ({ page, nb }) => {
  await page.setViewportSize({ width: 1440, height: 1000 });
  await nb.harness.call('team.join', { host: '127.0.0.1', port: cluster.port, database: 'northbound', user: 'alice', tls: { mode: 'off' } });
  const base = nb.host.url.split('#')[0];
  await page.goto(`${base}#/overview`);
  const card = page.getByTestId('tile-fleet');
  await expect(card.getByTestId('fleet-workers')).toContainText('1 of 2 alive');
  await expect(card.getByTestId('fleet-worker-worker-1')).toContainText('alive');
  await expect(card.getByTestId('fleet-worker-worker-2')).toContainText('not alive');
  await expect(card.getByTestId('fleet-lapsed')).toHaveText('1 lease lapsed');
  await expect(card.getByTestId('fleet-without-worker')).toHaveText('1 due with no worker');
  await expect(card.getByTestId('fleet-connectors')).toContainText('Falcon US: worker-2’s lease lapsed');
  await expect(card.getByTestId('fleet-connectors')).toContainText('Falcon APAC: due');
  await expect(card.getByTestId('fleet-collectors')).toContainText('lag 180 ms');
  await expect(card.getByTestId('fleet-database')).toContainText('reachable');
  await expect(card.getByTestId('fleet-broker')).toContainText('Not known to this console');
  await expect(card.getByTestId('fleet-asof')).toContainText('as of');
  const axe = await new AxeBuilder({ page }).include('[data-testid="tile-fleet"]').analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: path.join('tests/e2e/screenshots', '64-overview-fleet-card.png') });
  await nb.shot(page, '64-overview-fleet');
  // By keyboard to the Connectors page.
  await card.getByRole('link', { name: 'Falcon US' }).focus();
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/#\/connectors/);

  await cluster.pause();
  try {
    await page.goto(`${base}#/zta`);
    await page.goto(`${base}#/overview`);
    const banner = page.getByTestId('team-banner');
    await expect(banner).toHaveText(/Team database unreachable — showing data as of \d\d:\d\d:\d\d\./, { timeout: 15_000 });
    await expect(page.getByTestId('fleet-database')).toContainText('unreachable');
    await page.goto(`${base}#/alarms`);
    await expect(banner).toBeVisible();
    await page.goto(`${base}#/activity`);
    await expect(banner).toBeVisible();
    await expect(page.locator('[data-sonner-toast]')).toHaveCount(0);
    await nb.shot(page, '65-team-database-unreachable');
  } finally {
    await cluster.resume();
  }
  await expect(page.getByTestId('team-banner')).toHaveCount(0, { timeout: 20_000 });
});
