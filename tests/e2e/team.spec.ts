/**
 * Settings → Team in Chromium (issue 25.1): a console joins a team's PostgreSQL (a private cluster
 * set up by team init, the fleet's data written as its workers write it) as northbound_console; the
 * Connectors page shows the team's connector with its worker and last error, read-only with why;
 * the activity log is the team's; leaving shows the desk's own (empty) connectors again. A wrong
 * database name, and a pin asked of a server without TLS, are refused in the form with what to fix.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { teamInit, TEAM_ROLES } from '../../electron/app/team';
import { storeMigrations } from '../../electron/cli-team';
import { FleetConnectors } from '../../electron/edr/fleet/fleet-connectors';
import { openPostgres } from '../../electron/store/postgres';
import { startPostgres, type PgCluster } from '../support/pg-cluster';
import { expect, test } from './support/fixtures';
import { leaveTeamInForm } from './support/team';

let cluster: PgCluster;
let dir: string;

test.beforeAll(async () => {
  cluster = await startPostgres();
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-e2e-team-'));
  const admin = openPostgres({ url: cluster.url, max: 1 });
  await admin.query('CREATE DATABASE northbound');
  await admin.end();
  const owner = openPostgres({ url: cluster.urlOf('northbound'), max: 2 });
  try {
    await teamInit({ pool: owner, keyFile: path.join(dir, 'worker.key'), migrations: await storeMigrations() });
    await owner.query(`CREATE ROLE alice LOGIN IN ROLE ${TEAM_ROLES.console}`);
    const [c] = await new FleetConnectors(owner).registerBulk({
      version: 1,
      connectors: [{ vendor: 'falcon', name: 'Team Falcon', tenantId: 'a1b2c3d4e5f60718293a4b5c6d7e8f90', clientId: '0123456789abcdef0123456789abcdef', clientSecret: 's3cret', cloudRegion: 'us-1', pollIntervalMinutes: 10 }],
    });
    await owner.query("UPDATE fleet_claims SET worker = 'host-a:1', claimed_at = now(), lease_until = now() + interval '10 minutes', last_worker = 'host-a:1', last_status = 'failed', last_finished_at = now(), last_error = 'The tenant refused the token' WHERE connector_id = $1", [c!.id]);
  } finally {
    await owner.end();
  }
});

test.afterAll(async () => {
  await cluster?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('Settings → Team: join as a console, the team’s connectors read-only with why, leave', async ({ page, nb }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(`${nb.host.url.split('#')[0]}#/settings`);
  const team = page.getByTestId('team-settings');
  await expect(team.getByTestId('team-status')).toContainText('Not joined');
  await team.getByLabel('Host').fill('127.0.0.1');
  await team.getByLabel('Port').fill(String(cluster.port));
  await team.getByLabel('Database', { exact: true }).fill('nowhere');
  await team.getByLabel('Database user').fill('alice');
  // Pinning needs a server that offers TLS; this one does not, and the form says so.
  await team.getByLabel('Pin certificate').check();
  await team.getByRole('button', { name: 'Inspect certificate' }).click();
  await expect(team.getByTestId('team-problem')).toContainText('does not offer TLS');
  await team.getByLabel('No TLS (this machine only)').check();
  await team.getByRole('button', { name: 'Test' }).click();
  await expect(team.getByTestId('team-problem')).toContainText('has no database nowhere');
  await expect(team.getByTestId('team-problem')).toContainText('Check the database name');

  await team.getByLabel('Database', { exact: true }).fill('northbound');
  await team.getByRole('button', { name: 'Test' }).click();
  await expect(team.getByTestId('team-check')).toContainText('as console (reads the team’s stores)');
  await team.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(team.getByTestId('team-status')).toContainText('Joined');
  await expect(team.getByTestId('team-status')).toContainText(`alice@127.0.0.1:${cluster.port}/northbound`);
  await expect(team.getByTestId('team-read-only')).toContainText('Your database role northbound_console may not change connectors');
  await team.scrollIntoViewIfNeeded();
  await nb.shot(page, '63-settings-team-joined');

  await page.goto(`${nb.host.url.split('#')[0]}#/connectors`);
  await expect(page.getByTestId('connectors-team')).toContainText('northbound_console may not change connectors');
  const row = page.getByTestId('connector-row-Team Falcon');
  await expect(row.getByTestId('fleet-worker')).toContainText('host-a:1');
  await expect(row.getByTestId('fleet-last-error')).toHaveText('The tenant refused the token');
  await expect(row.getByRole('switch')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Add connector' })).toHaveCount(0);
  await expect(row.getByRole('button', { name: 'Poll now' })).toHaveCount(0);
  await nb.shot(page, '62-connectors-team-console');

  await page.goto(`${nb.host.url.split('#')[0]}#/activity`);
  await expect(page.getByText('Joined a team')).toBeVisible();

  await leaveTeamInForm(page, nb.host.url.split('#')[0]!);
  await page.goto(`${nb.host.url.split('#')[0]}#/connectors`);
  await expect(page.getByTestId('connectors-empty')).toBeVisible();
});
