/**
 * The owner's side of the alarm writer (alarms-writer-thread.ts): with `enabled` (the app), every
 * batch the alarm store ingests goes to the worker thread, started at the first one. A worker that
 * stops fails the batch in flight (the broker requeues it: it was not acknowledged) and is not
 * started again: later batches are written on the owner's connection, as before the worker existed.
 */
import type { AlarmItem } from '../../../shared/model/alarms';
import type { AlarmWriterOps, IngestOptions, IngestResult } from './ingest';
import { SqlWorker } from '../../store/sql-worker';

export class AlarmWrites {
  private worker: SqlWorker<AlarmWriterOps> | undefined;

  constructor(
    private readonly file: string,
    private readonly enabled: boolean,
  ) {}

  /** The batch written on the worker, or undefined: write it on the owner's connection. */
  ingest(source: string, items: readonly AlarmItem[], o: IngestOptions): Promise<IngestResult> | undefined {
    if (!this.enabled) return undefined;
    this.worker ??= new SqlWorker<AlarmWriterOps>('alarms/store/alarms-writer-thread', { file: this.file });
    return this.worker.running ? this.worker.call('ingest', source, [...items], o) : undefined;
  }

  close(): Promise<void> {
    return this.worker?.close() ?? Promise.resolve();
  }

  /** Tests: the worker's thread ends as in a crash. */
  crash(): Promise<void> {
    return this.worker?.terminate() ?? Promise.resolve();
  }
}
