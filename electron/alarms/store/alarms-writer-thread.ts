/**
 * The alarm store's batch writes on a worker thread (alarms-writer.ts; issue 21 item 5): this
 * thread's own AlarmStore on alarms.db runs `ingest` (a batch of up to 500 broker messages, a
 * backfill page) so its transaction never holds the thread that answers the window. The owner made
 * the schema and repaired the times at open; this store only writes. Every batch goes here once the
 * worker runs, so the change sequence (`headSeq`) is counted in one place.
 */
import { AlarmDb } from './alarms-db';
import type { AlarmWriterOps } from './ingest';
import { serveSqlWorker } from '../../store/sql-worker-thread';

export type { AlarmWriterOps } from './ingest';

serveSqlWorker((data: { file: string }) => {
  const store = new AlarmDb(data.file, { repair: false });
  const ops: AlarmWriterOps = { ingest: (source, items, o) => store.ingest(source, items, o) };
  return { ops, close: () => store.close() };
});
