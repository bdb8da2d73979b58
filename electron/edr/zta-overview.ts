/** The ZTA dashboard's overview (issue 11, EDR-Z12): the trend of band counts and the changes of each connector's newest cycle. */
import type { ZtaConnector, ZtaFilter, ZtaOverview } from '../../shared/model/zta';
import type { EdrStore } from './store/edr-store';

/** For the filters shown, over `all` the connectors the views know. */
export async function ztaOverview(store: Pick<EdrStore, 'trend' | 'changes'>, all: ZtaConnector[], f: ZtaFilter): Promise<ZtaOverview> {
  const connectors = all.filter((c) => (f.vendor === undefined || c.vendor === f.vendor) && (f.connector === undefined || c.connectorId === f.connector));
  const trend = await store.trend({
    connectors: new Set(connectors.map((c) => c.connectorId)),
    ...(f.customer !== undefined ? { customer: f.customer } : {}),
    ...(f.platform !== undefined ? { platform: f.platform } : {}),
  });
  const changes: ZtaOverview['changes'] = { enteredHighRisk: [], leftHighRisk: [], biggestMovers: [], moved: 0 };
  for (const c of connectors) {
    if (c.cycleId === null) continue;
    const ch = await store.changes(c.connectorId, c.cycleId);
    const keep = (m: { customerId: string }) => f.customer === undefined || m.customerId === f.customer;
    changes.enteredHighRisk.push(...ch.enteredHighRisk.filter(keep));
    changes.leftHighRisk.push(...ch.leftHighRisk.filter(keep));
    changes.biggestMovers.push(...ch.biggestMovers.filter(keep));
    changes.moved += ch.moved;
  }
  changes.biggestMovers = changes.biggestMovers.sort((a, b) => Math.abs(b.to.score - (b.from?.score ?? 0)) - Math.abs(a.to.score - (a.from?.score ?? 0))).slice(0, 10);
  return { trend, changes };
}
