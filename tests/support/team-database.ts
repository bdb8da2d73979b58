/**
 * A team's database for a test file (issue 25): a fresh database of the file's private cluster
 * (`usePostgres`) set up by `team init` as its owner, and login users, each a member of a team
 * role (or of none), that sign in by password `<user>-pw` — the cluster's pg_hba.conf asks them for
 * it (scram) while the tests' owner keeps its trust. Their pools are ended with the cluster's.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { teamInit } from '../../electron/app/team';
import { storeMigrations } from '../../electron/cli-team';
import { openPostgres, type PgPool } from '../../electron/store/postgres';
import type { usePostgres } from './postgres';
import { until } from './until';

export interface TeamDatabase {
  /** The owner's pool (the cluster's trust). */
  owner: PgPool;
  name: string;
  port: number;
  /** The workers' private key file `team init` wrote. */
  keyFile: string;
  /** A new pool of `user` signing in by password (`max` connections). */
  login(user: string, max?: number): PgPool;
  /** `user`'s URL (no password: it is `<user>-pw`). */
  url(user: string): string;
}

/** A fresh database of the file's cluster set up by `team init` as its owner (the cluster's trust); the workers' key file in `dir`. */
export async function initTeamDatabase(pg: ReturnType<typeof usePostgres>, prefix: string, dir: string): Promise<{ pool: PgPool; name: string; keyFile: string }> {
  const db = await pg.freshDatabase(prefix);
  const keyFile = path.join(dir, 'worker.key');
  await teamInit({ pool: db.pool, keyFile, migrations: await storeMigrations() });
  return { pool: db.pool, name: db.name, keyFile };
}

/** `users`: each login user and the team role it is a member of (null: none). `dir`: where the key file goes. */
export async function teamDatabase(pg: ReturnType<typeof usePostgres>, prefix: string, users: ReadonlyArray<readonly [string, string | null]>, dir: string): Promise<TeamDatabase> {
  const db = await initTeamDatabase(pg, prefix, dir);
  const port = pg.cluster().port;
  const keyFile = db.keyFile;
  for (const [user, role] of users) await db.pool.query(`CREATE ROLE ${user} LOGIN PASSWORD '${user}-pw'${role ? ` IN ROLE ${role}` : ''}`);
  const hba = path.join(pg.cluster().dir, 'data', 'pg_hba.conf');
  writeFileSync(hba, `host all ${users.map(([u]) => u).join(',')} 127.0.0.1/32 scram-sha-256\n${readFileSync(hba, 'utf8')}`);
  await db.pool.query('SELECT pg_reload_conf()');
  const url = (user: string) => `postgres://${user}@127.0.0.1:${port}/${db.name}`;
  const pools: PgPool[] = [];
  const login = (user: string, max = 2) => {
    const p = openPostgres({ url: url(user), password: `${user}-pw`, max });
    pools.push(p);
    return p;
  };
  // Once the server has read its new rules a wrong password is refused (28P01), not trusted.
  const probe = openPostgres({ url: url(users[0]![0]), password: 'wrong', max: 1 });
  try {
    await until('the server asks for passwords', () => probe.query('SELECT 1').then(() => false, (e: { code?: string }) => e.code === '28P01'));
  } finally {
    await probe.end();
  }
  pg.onClose(() => Promise.all(pools.map((p) => p.end().catch(() => undefined))));
  return { owner: db.pool, name: db.name, port, keyFile, login, url };
}
