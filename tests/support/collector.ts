/**
 * A fleet's alarm collector as a real child process (issue 24.4): `northbound alarms follow
 * --database-url` on a node's AMQP stream, signed in to the node's REST API as `node.username` (its
 * password given in the environment, as an operator would), trusting the node's CA from `caFile`.
 * The caller kills what is left in `children` when its tests end (`killCollectors`, by PID).
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import path from 'node:path';

const bin = path.resolve('bin/northbound.mjs');

export interface CollectorOptions {
  databaseUrl: string;
  amqpUrl: string;
  exchange: string;
  /** The node's basic-auth address (https://127.0.0.1:<port>) and the user the collector signs in as. */
  node: { url: string; username: string; password: string };
  caFile: string;
  children: ChildProcessWithoutNullStreams[];
}

export function startCollector(o: CollectorOptions) {
  const child = spawn(
    process.execPath,
    [bin, 'alarms', 'follow', '--database-url', o.databaseUrl, '--amqp-url', o.amqpUrl, '--exchange', o.exchange, '--node', o.node.url, '--username', o.node.username, '--password-env', 'NB_TEST_NODE_PW', '--ca-file', o.caFile, '--progress-every', '1'],
    { env: { ...process.env, NB_TEST_NODE_PW: o.node.password, ELECTRON_OVERRIDE_DIST_PATH: '/nonexistent' } },
  );
  o.children.push(child);
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += String(d)));
  child.stdout.resume();
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exit, stderr: () => stderr };
}

export type Collector = ReturnType<typeof startCollector>;

/** Whether `c` consumes the node's fleet queue `queue`; one that exited fails the wait with what it said (for `until`). */
export const collectorLive = (c: Collector, queue: string) => c.stderr().includes(`amqp live (queue ${queue})`) || (c.child.exitCode !== null && Promise.reject(new Error(c.stderr())));

/** Kills every collector still running, by its PID (afterAll). */
export function killCollectors(children: readonly ChildProcessWithoutNullStreams[]): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null && c.pid !== undefined) process.kill(c.pid, 'SIGKILL');
}
