/**
 * The ZTA dashboard in Chromium over 1,000,000 hosts a team stores in PostgreSQL (issue 25.3's
 * bench line): a private cluster (tests/support/pg-cluster.ts, `durable`), `team init` (the stores'
 * schemas, the roles), 10 Defender connectors registered as an admin would (disabled), the hosts loaded by zta-windows' bulk SQL (10 connectors of 100,000, as a
 * commit leaves them), a console user signing in by password, and the app (createApp on a temporary
 * data folder, browser mode) joined to the team through its router (`team.join`, C-84/C-85). Then
 * benchZtaDashboard's measurements, the same as over the desk's SQLite store.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createNodeAdapters } from '../../electron/app/node-platform';
import { createApp } from '../../electron/app/services';
import { TEAM_ROLES, teamInit } from '../../electron/app/team';
import { storeMigrations } from '../../electron/cli-team';
import { FleetConnectors } from '../../electron/edr/fleet/fleet-connectors';
import { createMemoryLogger } from '../../electron/log';
import { openPostgres } from '../../electron/store/postgres';
import { startPostgres } from '../support/pg-cluster';
import { SEED_PASSPHRASE } from './zta-seed';
import { type DashboardSetup } from './zta-dashboard.bench-part';
import { BULK } from './zta-windows.bench-part';

/** A what-if reads its tenant (one connector) whole into the window: measured up to zta-table's tenant size. */
export const WHATIF_MAX_TENANT = 100_000;
/** The bulk load's bound (47.6 s for 1,000,000 hosts on a quiet machine, zta-windows). */
const LOAD_TIMEOUT_S = 900;

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export async function teamPgDashboard(hosts: number, connectors = 10): Promise<DashboardSetup> {
  const cluster = await startPostgres({ durable: true });
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nb-bench-zta-pg-'));
  let app: Awaited<ReturnType<typeof createApp>> | undefined;
  const cleanup = async () => {
    await app?.shutdown();
    await cluster.stop();
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const admin = openPostgres({ url: cluster.url, max: 1 });
    await admin.query('CREATE DATABASE team');
    await admin.end();
    // One connection: the load's statement_timeout stays on it, and it is closed after.
    const owner = openPostgres({ url: cluster.urlOf('team'), max: 1 });
    const notes: string[] = [];
    try {
      let t = performance.now();
      await teamInit({ pool: owner, keyFile: path.join(dir, 'worker.key'), migrations: await storeMigrations() });
      notes.push(`team init ${fmt(performance.now() - t)} ms`);
      await owner.query(`CREATE ROLE console LOGIN PASSWORD 'console-pw' IN ROLE ${TEAM_ROLES.console}`);
      // The console signs in by password, as a team's would (the bench's owner keeps the cluster's trust).
      const hba = path.join(cluster.dir, 'data', 'pg_hba.conf');
      await writeFile(hba, `host all console 127.0.0.1/32 scram-sha-256\n${await readFile(hba, 'utf8')}`);
      await owner.query('SELECT pg_reload_conf()');
      // The connectors an admin registered (the Connectors page and the what-if read their settings from this list), disabled: no worker runs.
      const registered = await new FleetConnectors(owner).registerBulk({
        version: 1,
        connectors: Array.from({ length: connectors }, (_, c) => ({
          vendor: 'defender',
          name: `Bench Defender tenant ${c}`,
          enabled: false,
          tenantId: `11111111-2222-3333-4444-${String(c).padStart(12, '0')}`,
          clientId: '66666666-7777-8888-9999-000000000000',
          clientSecret: 'bench-secret-not-used',
          pollIntervalMinutes: 60,
          apiUrl: 'https://127.0.0.1:9/',
          idpUrl: 'https://127.0.0.1:9/',
        })),
      });
      const ids = registered.map((r) => r.id);
      if (!registered.every((r) => r.ok) || ids.some((id) => !id)) throw new Error(`registering the connectors: ${JSON.stringify(registered)}`);
      await owner.query(`SET statement_timeout = '${LOAD_TIMEOUT_S}s'`);
      t = performance.now();
      await owner.query(BULK(hosts, connectors, ids as string[]));
      notes.push(`${fmt(hosts)} hosts in ${connectors} connectors loaded by bulk SQL (zta-windows') with ANALYZE in ${fmt((performance.now() - t) / 1000, 1)} s`);
    } finally {
      await owner.end();
    }

    const logger = createMemoryLogger('warn');
    const adapters = await createNodeAdapters({ dataDir: dir, passphrase: SEED_PASSPHRASE, logger, mode: 'browser', demoPorts: { basic: 0, oauth: 0 } });
    app = await createApp(adapters, { edr: { firstPullDelayMs: 3_600_000 } });
    const t = performance.now();
    const joined = await app.router.invoke('team.join', { host: '127.0.0.1', port: cluster.port, database: 'team', user: 'console', password: 'console-pw', tls: { mode: 'off' } });
    if (!joined.ok) throw new Error(`team.join: ${JSON.stringify(joined.error)}`);
    notes.push(`team.join as ${TEAM_ROLES.console} ${fmt(performance.now() - t)} ms`);
    const tenant = Math.ceil(hosts / connectors);
    const whatIfSkipped =
      tenant > WHATIF_MAX_TENANT
        ? `skipped: a what-if reads its tenant (one connector, here ${fmt(tenant)} hosts) whole into the window; measured up to ${fmt(WHATIF_MAX_TENANT)} (zta-table's tenant)`
        : undefined;
    if (!whatIfSkipped) notes.push(`the what-if's tenant: one connector of ${fmt(tenant)} hosts (the bulk SQL's Defender hosts: records stored as '{}', the attributes a what-if rescores varied in the rows)`);
    return { label: 'PostgreSQL (a team joined as a console)', app, logger, hosts, query: 'ws-1234', answerTimeoutMs: 60_000, whatIfTenantHosts: tenant, whatIfSkipped, traceName: 'zta-pg', notes, close: cleanup };
  } catch (e) {
    await cleanup();
    throw e;
  }
}
