/**
 * The organization hierarchy as the inventory store lists it: a chain of 5,000 organizations each
 * the parent of the next (the depth, plan inheritance and loop cutting walk it), and a loop of
 * parent links. The unit tests check what the listing says; the time it takes is measured here.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { InventoryDb, type StoredOrganization } from '../../electron/inventory/store/inventory-db';

const org = (name: string, parent: string | null, plan: string | null): StoredOrganization => ({ uuid: `u-${name}`, name, parent, subscriptionPlan: plan });

export function benchOrgHierarchy(length: number): { length: number; chainMs: number; loopMs: number } {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-bench-orgs-'));
  try {
    const store = new InventoryDb(path.join(dir, 'inventory.db'));
    const chain = Array.from({ length }, (_, i) => org(`o${i}`, i === 0 ? null : `o${i - 1}`, i === 0 ? 'Root-Plan' : null));
    store.replaceOrganizations('chain', chain.reverse(), '2026-05-01T10:00:00.000Z');
    const t0 = performance.now();
    const { items } = store.organizations('chain');
    const chainMs = performance.now() - t0;
    if (items.at(-1)?.depth !== length - 1) throw new Error(`the chain's last organization has depth ${items.at(-1)?.depth}`);
    // The same number of organizations in one loop of parent links (each the parent of the next, the last of the first).
    const loop = Array.from({ length }, (_, i) => org(`l${i}`, `l${(i + 1) % length}`, i === 0 ? 'Loop-Plan' : null));
    store.replaceOrganizations('loop', loop, '2026-05-01T10:00:00.000Z');
    const t1 = performance.now();
    const looped = store.organizations('loop').items.length;
    const loopMs = performance.now() - t1;
    if (looped !== length) throw new Error(`the loop listed ${looped} organizations`);
    store.close();
    return { length, chainMs, loopMs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
