// @vitest-environment jsdom
/**
 * The what-if's Save on a console joined to a team (issue 25.1, C-93), against a real main joined
 * to a private PostgreSQL cluster set up by team init: under a northbound_console role the Save is
 * disabled and the panel says why and who may (the preview still moves); under northbound_admin
 * it saves to the team and says what happens to the stored scores (no worker runs here).
 */
import '@testing-library/jest-dom/vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEAM_ROLES } from '../../../electron/app/team';
import { FleetConnectors } from '../../../electron/edr/fleet/fleet-connectors';
import { openPgEdrStore } from '../../../electron/edr/store/edr-pg';
import type { PgPool } from '../../../electron/store/postgres';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { usePostgres } from '../../support/postgres';
import { initTeamDatabase } from '../../support/team-database';
import { MainBridge } from './support/main-bridge';
import { renderApp } from './support/render';

const pg = usePostgres();
let dir!: string;
let owner!: PgPool;
let dbName!: string;
let connectorId!: string;
const TENANT = '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d';

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-team-risk-ui-'));
  const db = await initTeamDatabase(pg, 'riskui', dir);
  owner = db.pool;
  dbName = db.name;
  await owner.query(`CREATE ROLE gina LOGIN IN ROLE ${TEAM_ROLES.console}`);
  await owner.query(`CREATE ROLE hank LOGIN IN ROLE ${TEAM_ROLES.admin}`);
  const [registered] = await new FleetConnectors(owner).registerBulk({
    version: 1,
    connectors: [{ vendor: 'defender', name: 'Team Defender', tenantId: TENANT, clientId: '0f1e2d3c-4b5a-4968-8776-655443322110', clientSecret: 's', apiUrl: 'https://127.0.0.1:9444', idpUrl: 'https://127.0.0.1:9445', pollIntervalMinutes: 60, enabled: true }],
  });
  connectorId = registered!.id!;
  const edr = await openPgEdrStore(owner);
  const cycle = await edr.beginCycle(connectorId, 'defender', TENANT, new Date('2026-11-29T12:00:00.000Z'));
  await edr.stageScores(cycle, connectorId, makeScoredHosts(40, { cycleSalt: 5, tenantId: TENANT }));
  await edr.commitCycle(cycle, new Date('2026-11-29T12:01:00.000Z'));
}, 120_000);

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Joins `user`, opens the ZTA page's what-if and moves the weights (the preview changes). */
async function whatIfAs(user: string) {
  const main = await MainBridge.start();
  await main.call('team.join', { host: '127.0.0.1', port: pg.cluster().port, database: dbName, user, tls: { mode: 'off' } });
  const ui = renderApp(main, { at: '/zta' });
  await screen.findByTestId('zta-count');
  await ui.user.click(screen.getByRole('button', { name: 'What-if' }));
  const panel = await screen.findByTestId('zta-whatif');
  // The seeded scores are not the defaults' own: the preview differs from the start, and moves with the slider.
  const changed = await waitFor(() => within(panel).getByTestId('zta-whatif-changed').textContent!);
  fireEvent.change(within(panel).getByTestId('zta-whatif-slider'), { target: { value: '100' } });
  await waitFor(() => expect(within(panel).getByLabelText('Critical risk (%)')).toHaveValue(100));
  await waitFor(() => expect(within(panel).getByTestId('zta-whatif-changed')).not.toHaveTextContent(changed));
  return { ...ui, main, panel };
}

const storedRisk = async () => (await owner.query<{ risk: unknown }>("SELECT config->'risk' AS risk FROM fleet_connectors WHERE id = $1", [connectorId])).rows[0]!.risk;

describe('the what-if in a team', () => {
  it('a console role: the preview moves, Save is disabled, and the panel says why and who may', async () => {
    const { main, panel } = await whatIfAs('gina');
    const save = within(panel).getByRole('button', { name: 'Save and rescore' });
    expect(save).toBeDisabled();
    const why = within(panel).getByTestId('zta-whatif-read-only');
    expect(why).toHaveTextContent('Your database role northbound_console may not change risk settings: a member of northbound_admin saves them for the team.');
    expect(save).toHaveAttribute('title', why.textContent);
    // A click asks main nothing.
    fireEvent.click(save);
    expect(screen.queryByTestId('zta-whatif-confirm')).toBeNull();
    expect(main.callsTo('zta.applyRisk')).toEqual([]);
    expect(await storedRisk()).toBeNull();
  }, 60_000);

  it('an admin: Save stores the settings in the team and says the stored hosts are rescored when a worker runs', async () => {
    const { main, panel, user } = await whatIfAs('hank');
    expect(within(panel).queryByTestId('zta-whatif-read-only')).toBeNull();
    await user.click(within(panel).getByRole('button', { name: 'Save and rescore' }));
    const ask = await screen.findByTestId('zta-whatif-confirm');
    await user.click(within(ask).getByRole('button', { name: 'Save and rescore' }));
    expect(await screen.findByText('Saved the risk settings of Team Defender to the team.', { selector: '[data-sonner-toast] *' }, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByText(/No worker of the team is running now: its stored hosts are rescored when one starts/, { selector: '[data-sonner-toast] *' })).toBeInTheDocument();
    expect(main.callsTo('zta.applyRisk')).toEqual([{ connectorId, risk: { weights: { critical: 100, operational: 0 } } }]);
    expect(await storedRisk()).toEqual({ weights: { critical: 100, operational: 0 } });
  }, 60_000);
});
