/**
 * What the PostgreSQL EDR store's parts share (edr-pg-staging.ts, edr-pg-commit.ts,
 * edr-pg-retention.ts): the refusal of a cycle no longer running, and retention's advisory lock.
 */
import { AppError, ErrorCodes } from '../../../shared/model/errors';

/** The error code of a stage or commit refused because the cycle is no longer running (another worker interrupted it). */
export const CYCLE_NOT_RUNNING = 'edr.cycle_not_running';
/** The error code of a commit refused because another process staged the cycle (its hosts seen as stored live with that process). */
export const CYCLE_STAGED_ELSEWHERE = 'edr.cycle_staged_elsewhere';
/** The error text of a cycle a worker interrupted to take its connector over. */
export const TAKEN_OVER_ERROR = 'Another worker took this connector over during this cycle (its lease had lapsed).';
/** Retention's advisory lock: exclusive for a prune, shared for each commit, so no commit moves a host a prune may delete. */
export const PRUNE_LOCK = "hashtext('northbound:edr:prune')";

export function notRunning(cycleId: number, status: string | undefined): AppError {
  return status === undefined
    ? new AppError(ErrorCodes.notFound, `There is no cycle ${cycleId} in the store.`, '')
    : new AppError(
        CYCLE_NOT_RUNNING,
        `Cycle ${cycleId} is ${status}, no longer running: its scores were not stored.`,
        status === 'interrupted' ? 'Another worker took its connector over; that worker polls the tenant again.' : '',
      );
}

export function stagedElsewhere(cycleId: number): AppError {
  return new AppError(
    CYCLE_STAGED_ELSEWHERE,
    `Cycle ${cycleId} is being staged by another process: only that process can stage more of it or commit it.`,
    'A cycle whose process is gone is interrupted when a worker takes its connector over, and its tenant is polled again.',
  );
}
