/**
 * vitest's global setup of the main project: after the run, stops the shared broker if a test
 * file started it (support/rabbitmq.ts); a broker that was already running stays.
 */
import { stopRabbitMqIfStarted } from './rabbitmq';

export default function setup(): () => Promise<void> {
  return () => stopRabbitMqIfStarted();
}
