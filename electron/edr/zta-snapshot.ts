/** The ZTA dashboard's snapshot (issue 11): the latest scores of every connector's newest completed cycle, columnar. */
import { COLUMN_KEYS, newestAsOf, type ZtaColumns, type ZtaConnector, type ZtaSnapshot } from '../../shared/model/zta';
import type { EdrStore } from './store/edr-store';

export async function ztaSnapshot(store: Pick<EdrStore, 'appendRows'>, connectors: ZtaConnector[]): Promise<ZtaSnapshot> {
  const rows = Object.fromEntries(COLUMN_KEYS.map((k) => [k, []])) as unknown as ZtaColumns;
  const customers: string[] = [];
  const customerIds = new Map<string, number>();
  const customerIndex = (id: string) => {
    let i = customerIds.get(id);
    if (i === undefined) {
      i = customers.push(id) - 1;
      customerIds.set(id, i);
    }
    return i;
  };
  for (const [i, c] of connectors.entries()) {
    if (c.cycleId !== null) await store.appendRows(rows, c.cycleId, i, customerIndex);
  }
  return { asOf: newestAsOf(connectors), connectors, customers, rows };
}
