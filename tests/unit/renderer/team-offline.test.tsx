// @vitest-environment jsdom
/**
 * A joined console whose team database goes away (issue 25.1, C-90), against a real main joined
 * to a private PostgreSQL cluster: with the cluster stopped (pg_ctl), every page shows one banner
 * "Team database unreachable — showing data as of …", the page already read keeps its rows, a
 * page never read says nothing in a toast (no error storm); with the cluster started again the
 * banner goes by itself and the views read fresh data.
 */
import '@testing-library/jest-dom/vitest';
import type { QueryClient } from '@tanstack/react-query';
import { screen, waitFor, within } from '@testing-library/react';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { teamInit, TEAM_ROLES } from '../../../electron/app/team';
import { storeMigrations } from '../../../electron/cli-team';
import { openPgActivityStore } from '../../../electron/store/activity-pg';
import { openPostgres, type PgPool } from '../../../electron/store/postgres';
import { startPostgres, type PgCluster } from '../../support/pg-cluster';
import { MainBridge } from './support/main-bridge';
import { renderApp } from './support/render';

let cluster!: PgCluster;
let owner!: PgPool;
let dir!: string;
const DB = 'offline_ui';
const entry = (what: string, at: string) => ({ at, user: 'gina@desk-4', nodeUser: null, action: 'alarms.clear', what, objectKind: 'alarm', objectId: '1', objectName: 'vni-0/1', connection: 'Lab', outcome: 'ok' as const, detail: '' });

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-offline-ui-'));
  cluster = await startPostgres();
  const admin = openPostgres({ url: cluster.url, max: 1 });
  await admin.query(`CREATE DATABASE ${DB}`);
  await admin.end();
  owner = openPostgres({ url: cluster.urlOf(DB), max: 2 });
  await teamInit({ pool: owner, keyFile: path.join(dir, 'worker.key'), migrations: await storeMigrations() });
  await owner.query(`CREATE ROLE gina LOGIN IN ROLE ${TEAM_ROLES.console}`);
  await (await openPgActivityStore(owner)).record(entry('Cleared alarms on the team', '2026-11-29T12:00:00.000Z'));
}, 120_000);

afterAll(async () => {
  await owner?.end().catch(() => undefined);
  await cluster?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The toasts shown, by their text (a failure names them). */
const toasts = () => [...document.querySelectorAll('[data-sonner-toast]')].map((t) => t.textContent);

/**
 * The window's reads have settled: main answered every call the window made and no query is in
 * flight (retries included), so every failure has reached the reporter and what it shows now stays.
 */
const settled = (main: MainBridge, queryClient: QueryClient) =>
  waitFor(
    () => {
      expect(main.answers).toHaveLength(main.calls.length);
      expect(queryClient.isFetching()).toBe(0);
    },
    { timeout: 15_000 },
  );

describe('a joined console without its team database', () => {
  it('shows one banner on every page, keeps what it read, no toast storm; the banner goes when the database is back', async () => {
    const main = await MainBridge.start();
    await main.call('team.join', { host: '127.0.0.1', port: cluster.port, database: DB, user: 'gina', tls: { mode: 'off' } });
    const { user, queryClient } = renderApp(main, { at: '/activity' });
    expect(await screen.findByText('Cleared alarms on the team')).toBeVisible();
    expect(screen.queryByTestId('team-banner')).toBeNull();

    await cluster.pause();
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    // Pages never read from the team (their reads fail), then back to the one read.
    const before = main.answers.length;
    for (const page of [/^Overview/, /^ZTA/, /^Alarms/, /^Activity/]) {
      await user.click(within(nav).getByRole('link', { name: page }));
      await settled(main, queryClient);
    }
    // The pages' reads did fail for want of the database: the missing toasts below are those failures' own.
    expect(main.answers.slice(before).filter((a) => a.answer.error?.code === 'team.unreachable').length).toBeGreaterThan(0);
    const banner = await screen.findByTestId('team-banner', {}, { timeout: 10_000 });
    expect(banner).toHaveTextContent(/^Team database unreachable — showing data as of \d\d:\d\d:\d\d\./);
    expect(banner).toHaveAttribute('role', 'status');
    // What the Activity page read is still shown.
    expect(screen.getByText('Cleared alarms on the team')).toBeVisible();
    // The banner on another page too, and not one toast for all the failed reads.
    await user.click(within(nav).getByRole('link', { name: /^Overview/ }));
    expect(await screen.findByTestId('team-banner')).toBeVisible();
    await settled(main, queryClient);
    expect(toasts()).toEqual([]);
    expect(screen.getAllByTestId('team-banner')).toHaveLength(1);

    await cluster.resume();
    await (await openPgActivityStore(owner)).record(entry('Acknowledged while away', '2026-11-29T13:00:00.000Z'));
    await waitFor(() => expect(screen.queryByTestId('team-banner')).toBeNull(), { timeout: 20_000 });
    await user.click(within(nav).getByRole('link', { name: /^Activity/ }));
    expect(await screen.findByText('Acknowledged while away', {}, { timeout: 10_000 })).toBeVisible();
    expect(toasts()).toEqual([]);
  }, 120_000);
});
