/**
 * The owner's side of the EDR cycle writer (edr-writer-thread.ts): a running cycle's batches and
 * its commit go to the worker thread, and what the owner needs to know of them synchronously (rows
 * staged per cycle) is kept here from the worker's answers. A cycle belongs to the writer from its
 * first batch: if the worker stops, that cycle's later calls fail (what it staged went with the
 * worker), and the store runs later cycles on its own connection again (EdrStore).
 */
import type { ScoredHost } from '../../../shared/model/edr';
import type { EdrWriterOps, StagedCounts } from './edr-writer-thread';
import type { PruneResult } from './edr-store';
import { SqlWorker } from '../../store/sql-worker';

export class EdrCycleWriter {
  private readonly worker: SqlWorker<EdrWriterOps>;
  /** Per cycle staged on the worker: the counts its last batch answered. */
  private readonly cycles = new Map<number, StagedCounts>();

  constructor(file: string) {
    this.worker = new SqlWorker<EdrWriterOps>('edr/store/edr-writer-thread', { file });
  }

  /** Whether new cycles may start on the worker (it has not stopped). */
  get running(): boolean {
    return this.worker.running;
  }

  set onCrash(f: ((e: Error) => void) | undefined) {
    this.worker.onCrash = f;
  }

  /** Whether `cycleId` staged on the worker. */
  has(cycleId: number): boolean {
    return this.cycles.has(cycleId);
  }

  async stage(cycleId: number, connectorId: string, hosts: ScoredHost[]): Promise<number> {
    if (!this.cycles.has(cycleId)) this.cycles.set(cycleId, { rows: 0, count: 0, changed: 0 });
    const counts = await this.worker.call('stage', cycleId, connectorId, hosts);
    if (this.cycles.has(cycleId)) this.cycles.set(cycleId, counts);
    return counts.rows;
  }

  async commit(cycleId: number, at: Date): Promise<number> {
    const hosts = await this.worker.call('commit', cycleId, at.toISOString());
    this.cycles.delete(cycleId);
    return hosts;
  }

  /** A cycle that did not complete: its staged rows go (answers immediately; the worker runs it in order). */
  discard(cycleId: number): void {
    if (!this.cycles.delete(cycleId)) return;
    // A stopped worker took them with it.
    this.worker.call('discard', cycleId).catch(() => undefined);
  }

  forgetHosts(hids: number[]): void {
    if (this.worker.running) this.worker.call('forgetHosts', hids).catch(() => undefined);
  }

  /** Retention on the worker's connection; the worker's staging forgets the hosts that went. */
  prune(at: Date, days: number): Promise<PruneResult & { gone: number[] }> {
    return this.worker.call('prune', at.toISOString(), days);
  }

  /** Rows staged (of one cycle or all), as the worker last answered. */
  count(cycleId?: number): number {
    if (cycleId !== undefined) return this.cycles.get(cycleId)?.count ?? 0;
    let n = 0;
    for (const c of this.cycles.values()) n += c.count;
    return n;
  }

  countChanged(cycleId: number): number {
    return this.cycles.get(cycleId)?.changed ?? 0;
  }

  close(): Promise<void> {
    return this.worker.close();
  }

  /** Tests: the worker ends as in a crash. */
  terminate(): Promise<void> {
    return this.worker.terminate();
  }
}

/**
 * EdrStore's routing of cycle writes when it is `offMain`: a cycle goes to the worker it staged on
 * (even stopped: its calls fail, what it staged went with it), a new cycle to the running worker
 * (started at the first batch). A worker that stopped is not started again: later cycles run on the
 * owner's connection, as before the worker existed.
 */
export class OffMainWrites {
  private current: EdrCycleWriter | undefined;

  constructor(
    private readonly file: string,
    private readonly enabled: boolean,
  ) {}

  /** The worker a cycle's writes go to, or undefined: the owner's connection. */
  for(cycleId: number): EdrCycleWriter | undefined {
    if (this.current?.has(cycleId)) return this.current;
    if (!this.enabled) return undefined;
    this.current ??= new EdrCycleWriter(this.file);
    return this.current.running ? this.current : undefined;
  }

  /** The worker `cycleId` staged on, if any. */
  writer(cycleId: number): EdrCycleWriter | undefined {
    return this.current?.has(cycleId) ? this.current : undefined;
  }

  /** Rows staged on the worker (of one cycle or all). */
  count(cycleId?: number): number {
    return this.current?.count(cycleId) ?? 0;
  }

  forgetHosts(hids: number[]): void {
    this.current?.forgetHosts(hids);
  }

  /** Retention on the running worker, or undefined: none runs, the owner prunes on its own connection. */
  prune(at: Date, days: number): Promise<PruneResult & { gone: number[] }> | undefined {
    return this.current?.running ? this.current.prune(at, days) : undefined;
  }

  close(): Promise<void> {
    return this.current?.close() ?? Promise.resolve();
  }

  /** Tests: the worker's thread ends as in a crash. */
  crash(): Promise<void> {
    return this.current?.terminate() ?? Promise.resolve();
  }
}
