/**
 * The inventory store's writes on a worker thread (inventory-writer.ts; C-100): this thread's own
 * InventoryDb on inventory.db runs every write of the store — a node's device list replaced (100,000
 * devices: a second or more of keys and SQLite), its appliances and organizations, one device, a
 * status, a task, what was learned of a node, a profile forgotten — one at a time in the order asked,
 * so main's thread only hands the lists over and keeps answering. The owner made the schema and the
 * keys of old rows when it opened the store; reads stay on its connection (WAL).
 */
import { InventoryDb } from './inventory-db';
import { serveSqlWorker } from '../../store/sql-worker-thread';

/** The writes, as InventoryDb does them (each its own transaction). */
export function inventoryWriterOps(db: InventoryDb) {
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
  };
}

export type InventoryWriterOps = ReturnType<typeof inventoryWriterOps>;

serveSqlWorker((data: { file: string }) => {
  const db = new InventoryDb(data.file, { upkeep: false });
  return { ops: inventoryWriterOps(db), close: () => db.close() };
});
