/**
 * The shared RabbitMQ broker of the tests on 127.0.0.1:5672: one already listening is used as it
 * is; otherwise the first test file that needs it starts Debian's rabbitmq-server bound to
 * 127.0.0.1, and the run's global teardown stops it (only a broker a test started: a marker file
 * says so). Files in other workers that need it meanwhile wait for that one start (a lock file):
 * two workers starting two servers on one node name, or a file stopping the broker in its
 * afterAll while another file's consumer was still on it, reset the others' connections.
 */
import { execFile, spawn } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { portOpen } from './rabbitmq-node';

const run = promisify(execFile);
export const AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';
/** Held by the one process starting the broker. */
const LOCK = path.join(os.tmpdir(), 'northbound-tests-rabbitmq.lock');
/**
 * Present while a broker a test started runs, naming the test run that started it (its vitest
 * main process, set by the global setup): that run's teardown stops it, never another run's (two
 * runs at once on one machine — a whole suite and one file, or two clones — would otherwise stop
 * the broker under each other's consumers).
 */
const STARTED = path.join(os.tmpdir(), 'northbound-tests-rabbitmq.started');
/** The environment variable the global setup names its run in. */
export const TEST_RUN_ENV = 'NB_TEST_RUN_PID';
/** What a start may take: about 9 s on a quiet machine, more under a loaded test run. */
export const RABBITMQ_START_MS = 90_000;

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Takes the start lock, or says who holds it; a lock whose holder died is taken over. */
function takeLock(): boolean {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return true;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      const holder = Number(readFileSync(LOCK, 'utf8').trim() || 'NaN');
      if (Number.isInteger(holder) && alive(holder)) return false;
      try {
        unlinkSync(LOCK);
      } catch {
        /* another waiter took it over first */
      }
    }
  }
  return false;
}

async function startServer(deadline: number): Promise<void> {
  const child = spawn('rabbitmq-server', ['-detached'], { env: { ...process.env, RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1', RABBITMQ_DIST_PORT: '25672' }, stdio: 'ignore' });
  await new Promise<void>((resolve, reject) => {
    child.once('error', (e) => reject(new Error(`rabbitmq-server could not start (${e.message}); install it: apt-get install rabbitmq-server`)));
    child.once('exit', () => resolve());
  });
  const fd = openSync(STARTED, 'w');
  writeSync(fd, process.env[TEST_RUN_ENV] ?? String(process.pid));
  closeSync(fd);
  while (!(await portOpen(5672))) {
    if (Date.now() > deadline) throw new Error('RabbitMQ did not open 127.0.0.1:5672 in time');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** The shared broker's address, once it accepts connections. A test file never stops it. */
export async function ensureRabbitMq(timeoutMs = RABBITMQ_START_MS): Promise<{ url: string }> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await portOpen(5672)) return { url: AMQP_URL };
    if (takeLock()) {
      try {
        // It may have come up between the look and the lock.
        if (!(await portOpen(5672))) await startServer(deadline);
      } finally {
        unlinkSync(LOCK);
      }
      return { url: AMQP_URL };
    }
    if (Date.now() > deadline) throw new Error('RabbitMQ did not open 127.0.0.1:5672 in time (another test process was starting it)');
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Stops the shared broker if a test of this run started it (vitest's global teardown); one found running, or started by another run, stays. */
export async function stopRabbitMqIfStarted(): Promise<void> {
  if (!existsSync(STARTED) || readFileSync(STARTED, 'utf8').trim() !== String(process.pid)) return;
  await run('rabbitmqctl', ['stop'], { timeout: 60_000 }).catch(() => undefined);
  unlinkSync(STARTED);
}
