/**
 * A real RabbitMQ broker for the tests: uses one already listening on 127.0.0.1:5672, or starts
 * Debian's rabbitmq-server bound to 127.0.0.1 and stops it afterwards (only the one it started).
 */
import { execFile, spawn } from 'node:child_process';
import net from 'node:net';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const AMQP_URL = 'amqp://guest:guest@127.0.0.1:5672';

const portOpen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host: '127.0.0.1', port }, () => (s.end(), resolve(true)));
    s.on('error', () => resolve(false));
    s.setTimeout(1000, () => (s.destroy(), resolve(false)));
  });

export async function ensureRabbitMq(timeoutMs = 90_000): Promise<{ url: string; stop(): Promise<void> }> {
  if (await portOpen(5672)) return { url: AMQP_URL, stop: async () => undefined };
  const child = spawn('rabbitmq-server', ['-detached'], { env: { ...process.env, RABBITMQ_NODE_IP_ADDRESS: '127.0.0.1', RABBITMQ_DIST_PORT: '25672' }, stdio: 'ignore' });
  await new Promise<void>((resolve, reject) => {
    child.once('error', (e) => reject(new Error(`rabbitmq-server could not start (${e.message}); install it: apt-get install rabbitmq-server`)));
    child.once('exit', () => resolve());
  });
  const deadline = Date.now() + timeoutMs;
  while (!(await portOpen(5672))) {
    if (Date.now() > deadline) throw new Error('RabbitMQ did not open 127.0.0.1:5672 in time');
    await new Promise((r) => setTimeout(r, 500));
  }
  return {
    url: AMQP_URL,
    async stop() {
      await run('rabbitmqctl', ['stop'], { timeout: 60_000 }).catch(() => undefined);
    },
  };
}
