/**
 * The inventory store's writes on a worker thread (inventory-writer.ts; C-100): this thread's own
 * InventoryDb on inventory.db runs every write of the store — a node's device list replaced (100,000
 * devices: a second or more of keys and SQLite), its appliances and organizations, one device, a
 * status, a task, what was learned of a node, a profile forgotten — one at a time in the order asked,
 * so main's thread only hands the lists over and keeps answering. A long list comes in parts
 * (`stage`, then `replaceStaged`: main copies one part per turn of its loop) and is written whole in
 * one transaction. The owner made the schema and the keys of old rows when it opened the store;
 * reads stay on its connection (WAL).
 */
import type { DeviceView } from '../../../shared/model/inventory';
import type { StoredOrganization } from '../../../shared/model/hierarchy';
import { InventoryDb, type StoredAppliance } from './inventory-db';
import { serveSqlWorker } from '../../store/sql-worker-thread';

/** The list replaces a staged list may be written by. */
export type ListReplace = 'replaceDevices' | 'replaceOrganizations' | 'replaceAppliances';

/** The writes, as InventoryDb does them (each its own transaction). */
export function inventoryWriterOps(db: InventoryDb) {
  /** Lists arriving in parts, by the owner's token; gone once written (or failed). */
  const staged = new Map<number, unknown[]>();
  return {
    replaceDevices: (...a: Parameters<InventoryDb['replaceDevices']>) => db.replaceDevices(...a),
    replaceOrganizations: (...a: Parameters<InventoryDb['replaceOrganizations']>) => db.replaceOrganizations(...a),
    replaceAppliances: (...a: Parameters<InventoryDb['replaceAppliances']>) => db.replaceAppliances(...a),
    upsertDevice: (...a: Parameters<InventoryDb['upsertDevice']>) => db.upsertDevice(...a),
    deleteDevice: (...a: Parameters<InventoryDb['deleteDevice']>) => db.deleteDevice(...a),
    setDeploymentStatus: (...a: Parameters<InventoryDb['setDeploymentStatus']>) => db.setDeploymentStatus(...a),
    setNodeMeta: (...a: Parameters<InventoryDb['setNodeMeta']>) => db.setNodeMeta(...a),
    putTask: (...a: Parameters<InventoryDb['putTask']>) => db.putTask(...a),
    forgetProfile: (...a: Parameters<InventoryDb['forgetProfile']>) => db.forgetProfile(...a),
    /** A part of a long list, kept until `replaceStaged`. */
    stage(token: number, part: unknown[]): void {
      const list = staged.get(token);
      if (list) for (const x of part) list.push(x);
      else staged.set(token, part);
    },
    /** Writes the list staged under `token` by `op`, in one transaction. */
    replaceStaged(token: number, op: ListReplace, profileId: string, fetchedAt: string, unreadable?: number): void {
      const list = staged.get(token) ?? [];
      staged.delete(token);
      if (op === 'replaceDevices') db.replaceDevices(profileId, list as DeviceView[], fetchedAt, unreadable);
      else if (op === 'replaceAppliances') db.replaceAppliances(profileId, list as StoredAppliance[], fetchedAt, unreadable);
      else db.replaceOrganizations(profileId, list as StoredOrganization[], fetchedAt, unreadable);
    },
  };
}

export type InventoryWriterOps = ReturnType<typeof inventoryWriterOps>;

serveSqlWorker((data: { file: string }) => {
  const db = new InventoryDb(data.file, { upkeep: false });
  return { ops: inventoryWriterOps(db), close: () => db.close() };
});
