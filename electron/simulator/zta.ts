/**
 * Where the management node receives published ZTA scores (spec 6: "published to the management
 * system"; path and shape not shown, see spec-decisions EDR-P1). The simulator keeps every
 * message it received, so tests can prove a cycle is published exactly once.
 */
import { json, type Reply } from './http';
import type { Route } from './routes';
import { CustomError } from './errors';

export interface ReceivedScores {
  receivedAt: string;
  message: Record<string, unknown>;
}

export const ZTA_SCORES_PATH = '/mgmt/zta/scores';

export function ztaRoutes(received: ReceivedScores[], now: () => number): Route[] {
  const post = (req: { body: unknown }): Reply => {
    const body = req.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== 'object' || typeof body.messageId !== 'string' || typeof body.cycleId !== 'number') {
      throw new CustomError(400, 4017, 'Invalid request', 'A score message needs messageId and cycleId.');
    }
    received.push({ receivedAt: new Date(now()).toISOString(), message: body });
    return json(202, { accepted: body.messageId });
  };
  const list = (): Reply => json(200, { totalCount: received.length, messages: received.map((r) => ({ receivedAt: r.receivedAt, messageId: r.message.messageId, cycleId: r.message.cycleId })) });
  return [{ pattern: ZTA_SCORES_PATH, style: 'custom', auth: 'data', methods: { POST: post, GET: list } }];
}
