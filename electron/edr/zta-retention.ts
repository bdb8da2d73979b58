/** Retention of edr.db after each completed cycle, at most once an hour (EDR-H4). */
import type { CycleProgress } from '../../shared/contract';
import type { Logger } from '../log';
import { DEFAULT_RETENTION_DAYS, type EdrStore } from './store/edr-store';

/** Retention runs at most this often (after a cycle completes). */
const PRUNE_EVERY_MS = 60 * 60_000;

export interface RetentionDeps {
  store: Pick<EdrStore, 'prune'>;
  logger: Logger;
  /** The retention setting in days (Settings → Risk history, `riskHistoryDays`), read when pruning. */
  retentionDays(): number;
  now: () => Date;
}

export class EdrRetention {
  private lastPrune = 0;

  constructor(private readonly d: RetentionDeps) {}

  /** After a cycle completes: retention, at most once an hour. */
  onProgress(p: CycleProgress): void {
    if (p.phase !== 'completed') return;
    const now = this.d.now();
    if (now.getTime() - this.lastPrune < PRUNE_EVERY_MS) return;
    this.lastPrune = now.getTime();
    void this.prune(now).catch((e: unknown) => this.d.logger.warn('edr.db retention failed', { error: String(e) }));
  }

  async prune(now = this.d.now()): Promise<void> {
    const days = this.d.retentionDays();
    const r = await this.d.store.prune(now, Number.isFinite(days) && days >= 1 ? days : DEFAULT_RETENTION_DAYS);
    if (r.cycles || r.hosts || r.changes) this.d.logger.info('edr.db retention', { days, ...r });
  }
}
