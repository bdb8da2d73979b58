/**
 * vitest's global setup of the main project: names this run for the test files' processes, and
 * after the run stops the shared broker if one of them started it (support/rabbitmq.ts); a broker
 * that was already running, or that another run started, stays.
 */
import { stopRabbitMqIfStarted, TEST_RUN_ENV } from './rabbitmq';

export default function setup(): () => Promise<void> {
  // The test files' processes, forked after this, name this run when they start the broker.
  process.env[TEST_RUN_ENV] = String(process.pid);
  return () => stopRabbitMqIfStarted();
}
