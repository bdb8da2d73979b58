/**
 * `zta export --database-url` (issue 24.5) through the command line: the same cycles written into a
 * data folder and into a private cluster's database export alike; the options refused as
 * `audit export` refuses them.
 */
import { describe, expect, it } from 'vitest';
import type { ScoredHost } from '../../../shared/model/edr';
import { cliConnectorId } from '../../../electron/edr/connector-ids';
import { makeScoredHosts } from '../../support/edr-fixtures';
import { at, edrBackends, moved } from '../../support/edr-backends';
import { runCli } from '../../support/cli';
import { usePostgres } from '../../support/postgres';

const backends = edrBackends(usePostgres());

describe('zta export --database-url (issue 24.5)', () => {
  it('writes a team’s scores from PostgreSQL byte for byte as a data folder’s export writes the same cycles; refuses both sources, neither, a password in the URL; an unreachable server is exit 1', async () => {
    const sources: string[][] = [];
    for (const [, open] of backends) {
      const o = await open();
      // Tenants the command line polled (a data folder shows them without registering them; a team's store shows every connector).
      const [t1, t2] = [cliConnectorId('defender', 't1'), cliConnectorId('defender', 't2')];
      const hosts = makeScoredHosts(60);
      const write = async (connectorId: string, tenantId: string, list: ScoredHost[], minute: number) => {
        const id = await o.store.beginCycle(connectorId, 'defender', tenantId, at(minute));
        await o.store.stageScores(id, connectorId, list);
        await o.store.commitCycle(id, at(minute + 1));
      };
      await write(t1, 't1', hosts, 0);
      await write(t1, 't1', hosts.map((h, i) => (i % 6 === 0 ? moved(h, 95) : h)), 10);
      await write(t2, 't2', makeScoredHosts(9, { tenantId: 't2' }), 12);
      await o.store.close();
      sources.push(o.source);
    }
    const [desk, team] = sources as [string[], string[]];
    const csv = await Promise.all([desk, team].map((from) => runCli(['zta', 'export', ...from, '--format', 'csv'])));
    expect(csv.map((r) => r.code)).toEqual([0, 0]);
    expect(csv[1]!.stdout.split('\r\n').filter(Boolean)).toHaveLength(1 + 69);
    expect(csv[1]!.stdout).toBe(csv[0]!.stdout);
    expect(csv[1]!.stderr).toBe(csv[0]!.stderr);
    expect(csv[1]!.stderr).toMatch(/^zta export: 69 of 69 hosts \(csv\), 2 connector\(s\), as of /);
    const json = await Promise.all([desk, team].map((from) => runCli(['zta', 'export', ...from, '--format', 'json', '--band', 'high-risk', '--no-progress'])));
    const docs = json.map((r) => {
      expect(r.code, r.stderr).toBe(0);
      const { exportedAt: _at, ...doc } = JSON.parse(r.stdout) as { exportedAt: string; rows: unknown[] };
      return doc;
    });
    expect(docs[1]!.rows.length).toBeGreaterThanOrEqual(10);
    expect(docs[1]).toEqual(docs[0]);

    const url = team[1]!;
    expect((await runCli(['zta', 'export', ...desk, ...team, '--format', 'csv'])).code).toBe(2);
    const neither = await runCli(['zta', 'export', '--format', 'csv']);
    expect(neither.code).toBe(2);
    expect(neither.stderr).toContain('Give either --data-dir (a data folder) or --database-url (a team\'s database), not both.');
    const withPassword = await runCli(['zta', 'export', '--database-url', url.replace('postgres@', 'postgres:hunter2@'), '--format', 'csv']);
    expect(withPassword.code).toBe(2);
    expect(withPassword.stderr).toContain('The database URL carries a password.');
    expect(withPassword.stderr).not.toContain('hunter2');
    const gone = await runCli(['zta', 'export', '--database-url', 'postgres://postgres@127.0.0.1:1/none', '--format', 'csv']);
    expect(gone.code).toBe(1);
    expect(gone.stdout).toBe('');
    expect(gone.stderr).toContain("The team's database at postgres://postgres@127.0.0.1:1/none could not be read");
  }, 120_000);
});
