/**
 * A private PostgreSQL cluster per test file (issue 24): `usePostgres` starts one (pg-cluster.ts)
 * before the file's tests and stops it, with every pool opened through it, after them.
 */
import { afterAll, beforeAll } from 'vitest';
import { openPostgres, type PgPool } from '../../electron/store/postgres';
import { startPostgres, type PgCluster } from './pg-cluster';

export { postgresBin, startPostgres, type PgCluster } from './pg-cluster';

/**
 * A cluster for the calling test file: started before its tests, stopped (with every pool opened
 * through it) after them. `freshDatabase` gives a test a database of its own.
 */
export function usePostgres() {
  let cluster: PgCluster | undefined;
  const pools: PgPool[] = [];
  const closers: Array<() => Promise<unknown>> = [];
  let made = 0;
  beforeAll(async () => {
    cluster = await startPostgres();
  }, 60_000);
  afterAll(async () => {
    await Promise.all(closers.map((c) => c()));
    await Promise.all(pools.map((p) => p.end()));
    await cluster?.stop();
  });
  const started = () => {
    if (!cluster) throw new Error('The PostgreSQL cluster is not started: use it inside a test.');
    return cluster;
  };
  const pool = (database = 'postgres', max = 4): PgPool => {
    const p = openPostgres({ url: started().urlOf(database), max });
    pools.push(p);
    return p;
  };
  return {
    cluster: started,
    pool,
    /** Runs `close` after the file's tests, before the cluster stops (pools opened elsewhere). */
    onClose(close: () => Promise<unknown>) {
      closers.push(close);
    },
    /** A new database named `<prefix>_<n>`, its URL and a pool on it. */
    async freshDatabase(prefix: string): Promise<{ name: string; url: string; pool: PgPool }> {
      const name = `${prefix}_${(made += 1)}`;
      const admin = openPostgres({ url: started().url, max: 1 });
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return { name, url: started().urlOf(name), pool: pool(name) };
    },
  };
}
