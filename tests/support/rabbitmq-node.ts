/**
 * A RabbitMQ node of a test's own, for tests that stop or restart their broker: other test files
 * use the default broker on 127.0.0.1:5672 at the same time (rabbitmq.ts), so those must never be
 * touched. This node has its own name, a free AMQP port and a free distribution port on 127.0.0.1,
 * its data, logs and Erlang cookie in a temporary folder (HOME points there), and no plugins. It is
 * stopped with `rabbitmqctl -n <its name> stop` (and its own server process killed by PID if that
 * does not end it); a restart keeps its data folder, so durable queues and persistent messages
 * survive it. Debian's `rabbitmq-server` wrapper switches to the rabbitmq user, so the scripts in
 * /usr/lib/rabbitmq/bin are run directly.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, openSync, closeSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BIN = '/usr/lib/rabbitmq/bin';
const tool = (name: string) => (existsSync(path.join(BIN, name)) ? path.join(BIN, name) : name);

/** A free TCP port on 127.0.0.1 (asked of the kernel; the node takes it a moment later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** Whether something accepts connections on 127.0.0.1:`port` (a second at most). */
export const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => (s.end(), resolve(true)));
    s.on('error', () => resolve(false));
    s.setTimeout(1000, () => (s.destroy(), resolve(false)));
  });

export interface PrivateRabbitMq {
  /** amqp://guest:guest@127.0.0.1:<port> (guest may sign in from loopback). */
  url: string;
  port: number;
  nodeName: string;
  dir: string;
  /** The server process while it runs. */
  pid(): number | undefined;
  /** Stops the node (its data stays). */
  stop(): Promise<void>;
  /** Starts it again on the same port and data. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  destroy(): Promise<void>;
}

/**
 * `nice`: run the node at that niceness (a bench's broker stands in for the management node's, on
 * another machine: it should not take the CPU the measured app needs).
 */
export async function startPrivateRabbitMq(o: { startTimeoutMs?: number; nice?: number } = {}): Promise<PrivateRabbitMq> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nb-rabbit-'));
  let port = await freePort();
  let distPort = await freePort();
  let nodeName = `nbtest${process.pid}x${port}@localhost`;
  await writeFile(path.join(dir, 'enabled_plugins'), '[].\n');
  const envOf = () => ({
    ...process.env,
    HOME: dir,
    RABBITMQ_NODENAME: nodeName,
    RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1',
    RABBITMQ_NODE_PORT: String(port),
    RABBITMQ_DIST_PORT: String(distPort),
    RABBITMQ_MNESIA_BASE: path.join(dir, 'mnesia'),
    RABBITMQ_LOG_BASE: path.join(dir, 'log'),
    RABBITMQ_ENABLED_PLUGINS_FILE: path.join(dir, 'enabled_plugins'),
    RABBITMQ_CONFIG_FILE: path.join(dir, 'rabbitmq'),
    RABBITMQ_ADVANCED_CONFIG_FILE: path.join(dir, 'advanced.config'),
    // The start script then execs the Erlang VM instead of waiting on it: the child's PID is the node's.
    RUNNING_UNDER_SYSTEMD: 'true',
  });
  let env = envOf();
  let child: ChildProcess | undefined;
  let exited: Promise<void> = Promise.resolve();
  // A test process that ends without its afterAll (a crash, a timeout) takes its node with it.
  const killOnExit = () => {
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) process.kill(child.pid, 'SIGKILL');
  };
  process.once('exit', killOnExit);

  const start = async () => {
    const out = openSync(path.join(dir, 'server.out'), 'a');
    // Through nice(1): the server and every thread it starts run at that niceness (the PID stays the node's).
    child = o.nice === undefined ? spawn(tool('rabbitmq-server'), [], { env, stdio: ['ignore', out, out] }) : spawn('nice', ['-n', String(o.nice), tool('rabbitmq-server')], { env, stdio: ['ignore', out, out] });
    closeSync(out);
    const c = child;
    exited = new Promise((resolve) => c.once('exit', () => resolve()));
    let failed: Error | undefined;
    c.once('error', (e) => (failed = new Error(`rabbitmq-server could not start (${e.message}); install it: apt-get install rabbitmq-server`)));
    const deadline = Date.now() + (o.startTimeoutMs ?? 120_000);
    while (!(await portOpen(port))) {
      if (failed) throw failed;
      if (c.exitCode !== null) throw new Error(`the test's RabbitMQ node ${nodeName} exited with ${c.exitCode} at start; see ${path.join(dir, 'server.out')}`);
      if (Date.now() > deadline) throw new Error(`the test's RabbitMQ node did not open 127.0.0.1:${port} in time`);
      await new Promise((r) => setTimeout(r, 250));
    }
  };

  const stop = async () => {
    const c = child;
    if (!c || c.exitCode !== null) return;
    await run(tool('rabbitmqctl'), ['-n', nodeName, 'stop'], { env, timeout: 60_000 }).catch(() => undefined);
    const ended = await Promise.race([exited.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 30_000))]);
    // Only this node's own server process, by its PID.
    if (!ended && c.pid !== undefined) {
      process.kill(c.pid, 'SIGKILL');
      await exited;
    }
    child = undefined;
  };

  // A port found free can be taken before the node binds it (another test's socket): the node then
  // stops at once saying so (a CI run: `dist_port_already_used`), and starts again on other ports.
  for (let attempt = 1; ; attempt++) {
    try {
      await start();
      break;
    } catch (e) {
      const said = await readFile(path.join(dir, 'server.out'), 'utf8').catch(() => '');
      if (attempt >= 3 || !/already_used|eaddrinuse/i.test(said)) throw e;
      port = await freePort();
      distPort = await freePort();
      nodeName = `nbtest${process.pid}x${port}@localhost`;
      env = envOf();
      await writeFile(path.join(dir, 'server.out'), '');
    }
  }
  return {
    url: `amqp://guest:guest@127.0.0.1:${port}`,
    port,
    nodeName,
    dir,
    pid: () => child?.pid,
    stop,
    start,
    async destroy() {
      await stop();
      process.off('exit', killOnExit);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
