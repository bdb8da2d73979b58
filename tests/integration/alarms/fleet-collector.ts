/**
 * The fleet collectors' tests' shared pieces (issue 24.4): a collector process
 * (`northbound alarms follow --database-url`, real child process) against the world's node and a
 * broker, what the team's database holds by message ID, and what a collector's progress lines say
 * it stored.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';
import type { PgPool } from '../../../electron/store/postgres';
import type { AlarmWorld } from './world';

const bin = path.resolve('bin/northbound.mjs');

/** Starts a collector on `databaseUrl`; the caller kills what is left in `children` after its tests. */
export function startCollector(o: { databaseUrl: string; amqpUrl: string; exchange: string; world: AlarmWorld; caFile: string; children: ChildProcessWithoutNullStreams[] }) {
  const { world: w } = o;
  const child = spawn(
    process.execPath,
    [bin, 'alarms', 'follow', '--database-url', o.databaseUrl, '--amqp-url', o.amqpUrl, '--exchange', o.exchange, '--node', w.sim.basicUrl, '--username', w.operator.username, '--password-env', 'NB_TEST_NODE_PW', '--ca-file', o.caFile, '--progress-every', '1'],
    { env: { ...process.env, NB_TEST_NODE_PW: w.operator.password, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent' } },
  );
  o.children.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  child.stdout.resume();
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr };
}

export type Collector = ReturnType<typeof startCollector>;

/** Kills every collector still running (afterAll). */
export function killCollectors(children: readonly ChildProcessWithoutNullStreams[]): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null && c.pid !== undefined) process.kill(c.pid, 'SIGKILL');
}

/** What the team's database holds by message ID. */
export async function storedIds(pool: PgPool) {
  const all = 'SELECT message_id FROM alarm_changes UNION ALL SELECT message_id FROM alarm_handlings';
  const t = (await pool.query<Record<string, string | null>>(`SELECT COUNT(*) AS rows, COUNT(*) FILTER (WHERE message_id IS NULL) AS without, COUNT(DISTINCT message_id) AS distinct_, MIN(message_id) AS min, MAX(message_id) AS max FROM (${all}) x`)).rows[0]!;
  const twice = (await pool.query<{ message_id: string }>(`SELECT message_id FROM (${all}) x WHERE message_id IS NOT NULL GROUP BY message_id HAVING COUNT(*) > 1 LIMIT 20`)).rows.map((r) => Number(r.message_id));
  const n = (v: string | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return { rows: n(t.rows)!, withoutId: n(t.without)!, distinct: n(t.distinct_)!, min: n(t.min), max: n(t.max), twice };
}

/** Changes a collector's progress lines say it stored. */
export const storedBy = (stderr: string) => [...stderr.matchAll(/amqp \w+(?: \(not connected\))?, \+(\d+) changes/g)].reduce((s, m) => s + Number(m[1]), 0);
