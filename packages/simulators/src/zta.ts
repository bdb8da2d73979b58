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

/**
 * The bulk push of EDR connectors (spec 4: "a bulk push from the management node for all
 * tenants"; endpoint not shown, see EDR-R2): GET /mgmt/edr/connectors answers the document the
 * node holds, `{"version":1,"connectors":[...]}`; PUT replaces it (operators and tests).
 */
export const EDR_CONNECTORS_PATH = '/mgmt/edr/connectors';

export function edrConnectorRoutes(doc: { current: Record<string, unknown> }): Route[] {
  return [
    {
      pattern: EDR_CONNECTORS_PATH,
      style: 'custom',
      auth: 'data',
      methods: {
        GET: () => json(200, doc.current),
        PUT: (req) => {
          const body = req.body as Record<string, unknown> | undefined;
          if (!body || body.version !== 1 || !Array.isArray(body.connectors)) throw new CustomError(400, 4017, 'Invalid request', 'The document must be {"version":1,"connectors":[...]}.');
          doc.current = body;
          return json(200, { accepted: body.connectors.length });
        },
      },
    },
  ];
}
