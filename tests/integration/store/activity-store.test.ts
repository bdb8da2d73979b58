/**
 * The activity log's store contract (issue 24.1), run against both backends: activity.db (SQLite in
 * a temp folder) and the fleet's PostgreSQL (a private cluster, one database per backend run).
 * Recording, newest-first paging with a total, search as plain text (LIKE's own characters are
 * literal), the outcome filter, the export oldest first in chunks, and retention by age and cap.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../../shared/model/activity';
import { openPgActivityStore } from '../../../electron/store/activity-pg';
import { openSqliteActivityStore, type ActivityStore, type NewActivity } from '../../../electron/store/activity-store';
import { usePostgres } from '../../support/postgres';
import { runCli } from '../../support/cli';

const pg = usePostgres();
const dirs: string[] = [];
let lastDatabase = '';
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const backends: Array<[string, () => Promise<ActivityStore>]> = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-act-'));
      dirs.push(dir);
      return openSqliteActivityStore(path.join(dir, 'activity.db'));
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const db = await pg.freshDatabase('activity');
      lastDatabase = db.url;
      return openPgActivityStore(db.pool);
    },
  ],
];

const entry = (patch: Partial<NewActivity> = {}): NewActivity => ({
  at: '2026-11-29T08:00:00.000Z',
  user: 'alice',
  nodeUser: 'ops1',
  console: 'desk-1 · 0123abcd',
  action: 'connectors.setEnabled',
  what: 'Enabled a connector',
  objectKind: 'connector',
  objectId: 'c1',
  objectName: 'Falcon EU',
  connection: null,
  outcome: 'ok',
  detail: '',
  ...patch,
});

describe.each(backends)('activity store: %s', (_name, open) => {
  it('records entries with rising ids and lists them newest first, a page at a time, with the total', async () => {
    const s = await open();
    const made: ActivityEntry[] = [];
    for (let i = 0; i < 7; i++) made.push(await s.record(entry({ at: `2026-11-29T08:00:0${i}.000Z`, objectName: `conn-${i}` })));
    expect(made.map((m) => m.id)).toEqual([...made.map((m) => m.id)].sort((a, b) => a - b));
    const first = await s.list({ limit: 3 });
    expect(first.total).toBe(7);
    expect(first.rows.map((r) => r.objectName)).toEqual(['conn-6', 'conn-5', 'conn-4']);
    // Every field comes back as written (times as ISO in UTC).
    expect(first.rows[0]).toEqual({ ...entry({ at: '2026-11-29T08:00:06.000Z', objectName: 'conn-6' }), id: made[6]!.id });
    const next = await s.list({ limit: 3, beforeId: first.rows.at(-1)!.id });
    expect(next.rows.map((r) => r.objectName)).toEqual(['conn-3', 'conn-2', 'conn-1']);
    expect(next.total).toBe(7);
    await s.close();
  });

  it('searches as plain text in every column people read, case-blind, and filters by outcome', async () => {
    const s = await open();
    await s.record(entry({ what: 'Cleared 3 alarms', detail: 'Fixed 100% of it', objectName: 'alarms' }));
    await s.record(entry({ user: 'Bob', what: 'Deployed a device', objectName: 'branch_7', outcome: 'failed', detail: 'HTTP 500' }));
    await s.record(entry({ nodeUser: null, what: 'Saved a connector', objectName: 'Defender EU', console: 'noc-9 · ffff0000' }));
    const names = async (f: Parameters<ActivityStore['list']>[0]) => (await s.list(f)).rows.map((r) => r.objectName);
    expect(await names({ limit: 10, q: 'bob' })).toEqual(['branch_7']);
    expect(await names({ limit: 10, q: 'DEFENDER' })).toEqual(['Defender EU']);
    // Which console made it (C-88).
    expect(await names({ limit: 10, q: 'NOC-9' })).toEqual(['Defender EU']);
    // % and _ are literal, not wildcards.
    expect(await names({ limit: 10, q: '100%' })).toEqual(['alarms']);
    expect(await names({ limit: 10, q: 'h_7' })).toEqual(['branch_7']);
    expect(await names({ limit: 10, q: 'ch_' })).toEqual(['branch_7']);
    expect(await names({ limit: 10, q: 'c_' })).toEqual([]);
    expect(await names({ limit: 10, outcome: 'failed' })).toEqual(['branch_7']);
    expect(await s.list({ limit: 10, q: 'a', outcome: 'ok' })).toMatchObject({ total: 2 });
    await s.close();
  });

  it('exports every entry oldest first, in chunks', async () => {
    const s = await open();
    for (let i = 0; i < 5; i++) await s.record(entry({ objectName: `e${i}` }));
    const chunks: string[][] = [];
    for await (const rows of s.all(2)) chunks.push(rows.map((r) => r.objectName));
    expect(chunks).toEqual([['e0', 'e1'], ['e2', 'e3'], ['e4']]);
    await s.close();
  });

  it('keeps entries for the retention days and at most the cap, the oldest going first', async () => {
    const s = await open();
    const at = (iso: string) => s.record(entry({ at: iso }));
    await at('2026-01-01T00:00:00.000Z');
    const kept = [await at('2026-11-20T00:00:00.000Z'), await at('2026-11-28T00:00:00.000Z'), await at('2026-11-29T00:00:00.000Z')];
    expect(await s.prune(30, new Date('2026-11-29T08:00:00Z'))).toBe(1);
    expect((await s.list({ limit: 10 })).rows.map((r) => r.id)).toEqual(kept.map((k) => k.id).reverse());
    expect(await s.prune(30, new Date('2026-11-29T08:00:00Z'), 2)).toBe(1);
    expect((await s.list({ limit: 10 })).rows.map((r) => r.id)).toEqual([kept[2]!.id, kept[1]!.id]);
    await s.close();
  });
});


describe('audit export --database-url (issue 24.5)', () => {
  it('prints a team’s activity log from PostgreSQL, oldest first, as the desk’s export does; refuses a password in the URL and an unreachable server clearly', async () => {
    const [, open] = backends[1]!;
    const s = await open();
    await s.record(entry({ objectName: 'first' }));
    await s.record(entry({ objectName: 'second', outcome: 'failed', detail: 'HTTP 500' }));
    const url = lastDatabase;
    const jsonl = await runCli(['audit', 'export', '--database-url', url], { NORTHBOUND_DATABASE_PASSWORD: 'unused-by-trust' });
    expect(jsonl.stderr).toBe('');
    expect(jsonl.code).toBe(0);
    const rows = jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l) as { objectName: string; outcome: string });
    expect(rows.map((r) => [r.objectName, r.outcome])).toEqual([
      ['first', 'ok'],
      ['second', 'failed'],
    ]);
    const withPassword = await runCli(['audit', 'export', '--database-url', url.replace('postgres@', 'postgres:hunter2@')]);
    expect(withPassword.code).toBe(2);
    expect(withPassword.stderr).toContain('The database URL carries a password.');
    expect(withPassword.stderr).not.toContain('hunter2');
    expect((await runCli(['audit', 'export', '--database-url', url, '--data-dir', '/tmp'])).code).toBe(2);
    const gone = await runCli(['audit', 'export', '--database-url', `postgres://postgres@127.0.0.1:1/none`]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("The team's database at postgres://postgres@127.0.0.1:1/none could not be read");
  }, 60_000);
});

