/** Publication targets: a RabbitMQ topic exchange (amqplib, publisher confirms) and the management node. */
import type { PublishTarget, ScoreMessage } from './publisher';

export interface AmqpTargetOptions {
  /** The broker address, or how to get it at each send (the settings can change between two). */
  url: string | (() => Promise<string>);
  exchange?: string;
}

/**
 * Topic exchange `northbound.zta` (durable); routing key `zta.scores.<vendor>.<tenantId>`;
 * persistent JSON messages with `messageId` set, sent on a confirm channel so a send only counts
 * once the broker has it.
 */
export function amqpTarget(o: AmqpTargetOptions): PublishTarget {
  const exchange = o.exchange ?? 'northbound.zta';
  return {
    name: `amqp:${exchange}`,
    async send(messages: ScoreMessage[]) {
      // Loaded on the first send: most installations never publish to RabbitMQ.
      const { default: amqp } = await import('amqplib');
      const conn = await amqp.connect(typeof o.url === 'string' ? o.url : await o.url());
      // A refusal (an exchange declared otherwise, a permission) closes the channel, then the
      // connection emits it as an error: the send's own rejection says it; unheard, it would end the process.
      conn.on('error', () => undefined);
      try {
        const ch = await conn.createConfirmChannel();
        await ch.assertExchange(exchange, 'topic', { durable: true });
        for (const m of messages) {
          ch.publish(exchange, `zta.scores.${m.vendor}.${m.tenantId}`, Buffer.from(JSON.stringify(m)), {
            persistent: true,
            contentType: 'application/json',
            messageId: m.messageId,
            type: m.type,
            timestamp: Math.floor(Date.now() / 1000),
          });
        }
        await ch.waitForConfirms();
        await ch.close();
      } finally {
        await conn.close().catch(() => undefined);
      }
    },
  };
}

/** The management node: POST /mgmt/zta/scores through a signed-in management client. */
export function mgmtTarget(name: string, request: (method: string, path: string, body: unknown) => Promise<unknown>): PublishTarget {
  return {
    name: `mgmt:${name}`,
    async send(messages: ScoreMessage[]) {
      for (const m of messages) await request('POST', '/mgmt/zta/scores', m);
    },
  };
}
