/**
 * What a batch into the alarm store carries and answers: shared by the store (alarms-db.ts), its
 * writer on the owner's side (alarms-writer.ts) and the worker thread (alarms-writer-thread.ts),
 * kept in a leaf so that none of them imports the others in a circle.
 */
import type { AlarmItem } from '../../../shared/model/alarms';

export interface DeadLetter {
  reason: string;
  routingKey: string;
  /** The start of the body as received (at most 2 KB kept). */
  excerpt: string;
}

export interface IngestOptions {
  /** When the batch is committed (ms). */
  storedMs: number;
  /** The highest message ID of the batch per node (`director_hostname`), kept for gap detection. */
  messageIds?: ReadonlyMap<string, number>;
  /** Move the source's cursor to this time (if later): its changes up to it are complete. */
  cursorMs?: number;
  deadLetters?: readonly DeadLetter[];
  /**
   * A fleet collector's broker messages (PostgreSQL store, C-65): each recorded once by (source,
   * director, message_id), so the fleet finds gaps over what every collector stored. The SQLite
   * store, one consumer per queue, finds them in the stream itself and ignores these.
   */
  marks?: ReadonlyArray<{ director: string; messageId: number; newestEventMs?: number }>;
}

export interface IngestResult {
  /** Status changes and handlings the store did not have. */
  newChanges: number;
  newHandlings: number;
  /** Copies of what it had (second deliveries, overlapping backfills). */
  duplicates: number;
  /** Alarms with something new. */
  aids: number[];
  /** Alarms the store did not have. */
  newAlarms: number;
  headSeq: number;
  /** The longest time from a new change on the node to its commit here, of the changes a broker message brought (ms). */
  lagMs: number | null;
}

/** The worker thread's operations (alarms-writer-thread.ts serves them). */
export type AlarmWriterOps = {
  ingest(source: string, items: AlarmItem[], o: IngestOptions): IngestResult;
};
