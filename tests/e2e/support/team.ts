/**
 * Settings → Team as an operator fills it (issue 25.1): join a team's PostgreSQL on 127.0.0.1
 * without TLS (the tests' private cluster), and leave it again after the confirmation.
 */
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

export interface TeamFormInput {
  port: number;
  database: string;
  user: string;
}

/** Opens Settings at `base` (the app's address without a route), fills the Team form and joins; waits until it says Joined. */
export async function joinTeamInForm(page: Page, base: string, o: TeamFormInput): Promise<void> {
  await page.goto(`${base}#/settings`);
  const team = page.getByTestId('team-settings');
  await expect(team.getByTestId('team-status')).toContainText('Not joined');
  await team.getByLabel('Host').fill('127.0.0.1');
  await team.getByLabel('Port').fill(String(o.port));
  await team.getByLabel('Database', { exact: true }).fill(o.database);
  await team.getByLabel('Database user').fill(o.user);
  await team.getByLabel('No TLS (this machine only)').check();
  await team.getByRole('button', { name: 'Join', exact: true }).click();
  await expect(team.getByTestId('team-status')).toContainText('Joined', { timeout: 15_000 });
  await expect(team.getByTestId('team-status')).toContainText(`${o.user}@127.0.0.1:${o.port}/${o.database}`);
}

/** Leaves the team from Settings (the page must be the app at `base`); waits until it says Not joined. */
export async function leaveTeamInForm(page: Page, base: string): Promise<void> {
  await page.goto(`${base}#/settings`);
  const team = page.getByTestId('team-settings');
  await team.getByRole('button', { name: 'Leave' }).click();
  await page.getByTestId('confirm-dialog').getByRole('button', { name: 'Leave' }).click();
  await expect(team.getByTestId('team-status')).toContainText('Not joined', { timeout: 15_000 });
}
