/**
 * Bulk onboarding jobs (CSV, MN-48): the job registry, the comparison with the node and the dry-run
 * prediction. Every row is validated again first (bulk-rows.ts: a bad row
 * fails with its line and field; the others go on); the node's device list is paged in once and
 * rows whose device is already there with the same record are skipped, so running a file again
 * does no work. A dry run stops there (valid / skipped / failed; a failure it predicts from the
 * node's lists is a data error, which "Retry failed rows" leaves out). Otherwise at most `concurrency`
 * rows run at a time — a row is one PUT and, when asked, one deployment followed to its end — so
 * never more than `concurrency` calls are in flight. Cancel stops starting rows (the rest are
 * cancelled); rows in flight finish. Progress events are throttled and carry only changed rows.
 */
import { randomUUID } from 'node:crypto';
import type { EmitEvent, ParsedRequestOf } from '../../shared/contract';
import { AppError, ErrorCodes, endsSession, isTransportFailure } from '../../shared/model/errors';
import type { BulkJobState, BulkRowOutcome, BulkRowResult, DeviceRecord, DeviceView, TaskStatus } from '../../shared/model/inventory';
import type { Logger } from '../log';
import { validateRows, type Row } from './bulk-rows';
import { changeText, recordDiff, recordKnown, type FieldChange } from './node-api';
import { abortable } from '../net/retry';
import type { FollowOutcome } from './tasks';
import { throttle, type Throttled } from '../throttle';
import { forEachLimited } from '../pool';

export interface BulkTiming {
  /** Least time between two onboarding.progress events of a job; default 100 ms (at most ~10 a second). */
  progressIntervalMs?: number;
  /** Finished jobs kept for onboarding.get; default 5. */
  keepJobs?: number;
}

/**
 * What a bulk job needs of the node and the store, and nothing more: built in the composition
 * root (app/services.ts) from the inventory service.
 */
export interface BulkPorts {
  /** Throws when the connection cannot call its node now. */
  requireSignedIn(profileId: string, what: string): void;
  /** Pages the node's devices into the store; answers what was stored. */
  devices(profileId: string): Promise<{ items: DeviceView[] }>;
  /** Pages the node's organizations into the store (a dry run checks names against them). */
  organizationNames(profileId: string): Promise<string[]>;
  /** One device's whole record, from the node. */
  readDevice(profileId: string, deviceName: string): Promise<DeviceView>;
  /** Creates or replaces the device's record on the node (and in the store). */
  putDevice(profileId: string, record: DeviceRecord): Promise<unknown>;
  /** Starts a deployment; `outcome` settles when its task ends or following stops. */
  startDeploy(profileId: string, deviceName: string): Promise<{ task: TaskStatus; outcome: Promise<FollowOutcome> }>;
  /** Tells the window the stored devices changed. */
  devicesChanged(profileId: string): void;
  /** The job's deployments ended: the device list and its state are read again (status, new appliances). */
  deploymentsEnded(profileId: string): void;
}

export interface BulkJobsOptions extends BulkTiming {
  ports: BulkPorts;
  emit: EmitEvent;
  logger: Logger;
}

type StartRequest = ParsedRequestOf<'onboarding.start'>;

interface Job {
  head: Omit<BulkJobState, 'rows' | 'done' | 'counts'>;
  rows: Row[];
  changed: Set<number>;
  /** onboarding.progress, at most once per interval (electron/throttle.ts). */
  progress: Throttled<[]>;
  abort: AbortController;
  cancelled: boolean;
  /** Why the whole job stopped (session ended, node gone). */
  stopped?: string;
  /** Rows to send, in file order; `started` holds those a worker has taken. */
  queue: number[];
  started: Set<number>;
  transportFailures: number;
  finished: Promise<void>;
}

/** Errors that will fail every further row the same way: the job stops instead. */
const MAX_TRANSPORT_FAILURES = 5;

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));
const issuesOf = (e: unknown): Array<{ path: string; message: string }> =>
  e instanceof AppError && Array.isArray(e.details?.issues) ? (e.details.issues as Array<{ path: string; message: string }>) : [];

export class BulkJobs {
  private readonly jobs = new Map<string, Job>();
  private readonly intervalMs: number;
  private readonly keep: number;

  constructor(private readonly o: BulkJobsOptions) {
    this.intervalMs = o.progressIntervalMs ?? 100;
    this.keep = o.keepJobs ?? 5;
  }

  start(req: StartRequest): BulkJobState {
    this.o.ports.requireSignedIn(req.profileId, 'onboard devices');
    for (const j of this.jobs.values()) {
      if (j.head.profileId === req.profileId && j.head.state === 'running') {
        throw new AppError('onboarding.busy', 'A bulk onboarding is already running on this node.', 'Wait for it to finish or cancel it, then start again.', { details: { jobId: j.head.jobId } });
      }
    }
    const job: Job = {
      head: { jobId: randomUUID(), profileId: req.profileId, dryRun: req.dryRun, deploy: req.deploy, replace: req.replace, concurrency: req.concurrency, state: 'running', total: req.rows.length, startedAt: new Date().toISOString(), finishedAt: null },
      rows: validateRows(req.rows),
      changed: new Set(),
      progress: throttle(() => this.emitProgress(job), this.intervalMs),
      abort: new AbortController(),
      cancelled: false,
      queue: [],
      started: new Set(),
      transportFailures: 0,
      finished: Promise.resolve(),
    };
    this.jobs.set(job.head.jobId, job);
    this.o.logger.info('bulk onboarding started', { jobId: job.head.jobId, profileId: req.profileId, rows: req.rows.length, dryRun: req.dryRun, deploy: req.deploy, replace: req.replace, concurrency: req.concurrency });
    job.finished = this.run(job).catch((e: unknown) => this.o.logger.error('bulk job failed unexpectedly', { jobId: job.head.jobId, error: messageOf(e) }));
    return snapshot(job, job.rows);
  }

  get(jobId: string): BulkJobState {
    return snapshot(this.job(jobId), this.job(jobId).rows);
  }

  cancel(jobId: string): BulkJobState {
    const job = this.job(jobId);
    if (job.head.state === 'running' && !job.cancelled) {
      job.cancelled = true;
      job.abort.abort();
      this.o.logger.info('bulk onboarding cancelled', { jobId, started: job.started.size, queued: job.queue.length });
      this.leaveUnstarted(job, 'cancelled', 'Not sent: the job was cancelled.');
      this.flush(job);
    }
    return snapshot(job, job.rows);
  }

  cancelProfile(profileId: string): void {
    for (const j of this.jobs.values()) if (j.head.profileId === profileId && j.head.state === 'running') this.cancel(j.head.jobId);
  }

  /** Cancels every running job and waits (at most `budgetMs`) for rows in flight. */
  async close(budgetMs = 2000): Promise<void> {
    const running = [...this.jobs.values()].filter((j) => j.head.state === 'running');
    for (const j of running) this.cancel(j.head.jobId);
    await Promise.race([Promise.allSettled(running.map((j) => j.finished)), new Promise((r) => setTimeout(r, budgetMs).unref())]);
  }

  private job(jobId: string): Job {
    const job = this.jobs.get(jobId);
    if (!job) throw new AppError(ErrorCodes.notFound, `There is no bulk onboarding job ${jobId.length > 64 ? `${jobId.slice(0, 64)}…` : jobId}.`, `Only the last ${this.keep} finished jobs are kept; start the job again.`);
    return job;
  }

  private async run(job: Job): Promise<void> {
    const { profileId } = job.head;
    const ports = this.o.ports;
    let existing: Map<string, DeviceView>;
    let orgs: Set<string> | undefined;
    try {
      const list = await abortable(ports.devices(profileId), job.abort.signal, 'The bulk onboarding');
      ports.devicesChanged(profileId);
      existing = new Map(list.items.map((d) => [d.deviceName, d]));
      if (job.head.dryRun) orgs = new Set(await abortable(ports.organizationNames(profileId), job.abort.signal, 'The bulk onboarding'));
    } catch (e) {
      if (!job.cancelled) this.stop(job, `Could not read the node's devices: ${messageOf(e)}`);
      return this.finish(job);
    }
    this.compare(job, existing, orgs);
    // A dry run sends nothing, but reads the records of rows it could not compare from the list.
    if (!job.cancelled && (!job.head.dryRun || job.queue.length > 0)) {
      await forEachLimited(job.queue, job.head.concurrency, (i) => this.runRow(job, i), () => job.cancelled || job.stopped !== undefined);
    }
    return this.finish(job);
  }

  /** Skips identical rows; in a dry run also predicts what the node would refuse. */
  private compare(job: Job, existing: Map<string, DeviceView>, orgs: Set<string> | undefined): void {
    const siteHolder = new Map<number, string>();
    if (orgs) for (const d of existing.values()) if (d.siteId !== null) siteHolder.set(Number(d.siteId), d.deviceName);
    job.rows.forEach((row, i) => {
      if (row.result.outcome !== 'pending' || !row.record) return;
      const rec = row.record;
      const there = existing.get(rec.deviceName);
      if (there !== undefined && !recordKnown(there)) {
        if (orgs && !this.predictable(job, i, rec, orgs, siteHolder)) return;
        row.check = true;
        job.queue.push(i);
        return;
      }
      const todo = this.compareRow(job, i, row, there);
      if (!todo) return;
      const { needsDeploy } = todo;
      if (!orgs) {
        row.deployOnly = needsDeploy;
        job.queue.push(i);
        return;
      }
      if (!this.predictable(job, i, rec, orgs, siteHolder)) return;
      this.setValid(job, i, needsDeploy, row.replacing);
    });
  }

  /**
   * A row against the node's device of its name (from the list, or read for a row the list did not
   * tell): settled here when the node has it with this record and nothing to deploy (unchanged), or
   * with another record the job does not replace (exists); otherwise what is left to do, a record to
   * replace noted on the row.
   */
  private compareRow(job: Job, i: number, row: Row, there: DeviceView | undefined): { needsDeploy: boolean } | undefined {
    if (there === undefined) return { needsDeploy: false };
    const diff = recordDiff(row.record!, there);
    if (diff.length > 0) {
      if (!job.head.replace) return void this.setExists(job, i, diff);
      row.replacing = diff;
      return { needsDeploy: false };
    }
    const needsDeploy = job.head.deploy && (there.deploymentStatus === 'saved' || there.deploymentStatus === 'failed');
    if (!needsDeploy) return void this.setSame(job, i, there);
    return { needsDeploy };
  }

  /** Already on the node with this record: nothing to send. */
  private setSame(job: Job, i: number, there: DeviceView): void {
    this.set(job, i, 'skipped', `Already on the node with this record (${there.deploymentStatus}).`, undefined, undefined, { change: 'same' });
  }

  /** On the node with another record, and the job does not replace: left alone, with what differs (issue 22.3). */
  private setExists(job: Job, i: number, diff: FieldChange[]): void {
    const verb = job.head.dryRun ? 'Would be skipped' : 'Skipped';
    this.set(job, i, 'skipped', `${verb} (exists): the node has this device with another ${changeText(diff)}. Choose “Replace devices that exist” to send it.`, undefined, undefined, { change: 'exists', differs: diff });
  }

  /**
   * Dry run: what the node would refuse, from the stored lists; false when the row failed here.
   * Such a prediction is a data error: a dry run of the same row again predicts the same.
   */
  private predictable(job: Job, i: number, rec: DeviceRecord, orgs: Set<string>, siteHolder: Map<number, string>): boolean {
    const holder = siteHolder.get(Number(rec.siteId));
    if (!orgs.has(rec.orgName)) this.set(job, i, 'failed', `There is no organization named ${rec.orgName} on the node.`, 'orgName', true);
    else if (holder !== undefined && holder !== rec.deviceName) this.set(job, i, 'failed', `Site ID ${rec.siteId} is already used by device ${holder} on the node.`, 'siteId', true);
    else return true;
    return false;
  }

  private setValid(job: Job, i: number, needsDeploy: boolean, replacing: FieldChange[] | undefined): void {
    const what = needsDeploy ? 'would be deployed' : replacing ? `would replace the device on the node (${changeText(replacing)})` : 'would be created';
    this.set(job, i, 'valid', `Valid; ${what}${job.head.deploy && !needsDeploy ? ' and deployed' : ''}.`, undefined, undefined, needsDeploy ? { change: 'same' } : replacing ? { change: 'replaced', differs: replacing } : { change: 'created' });
  }

  private async runRow(job: Job, i: number): Promise<void> {
    const { profileId } = job.head;
    const row = job.rows[i] as Row;
    const rec = row.record as DeviceRecord;
    job.started.add(i);
    let stage: 'put' | 'deploy' = 'put';
    try {
      if (row.check) {
        const todo = this.compareRow(job, i, row, await this.o.ports.readDevice(profileId, rec.deviceName));
        if (!todo) return;
        if (job.head.dryRun) return this.setValid(job, i, todo.needsDeploy, row.replacing);
        row.deployOnly = todo.needsDeploy;
      }
      // What the row did to the node's device of its name, said in every result from here on.
      const change = row.deployOnly ? ({ change: 'same' } as const) : row.replacing ? ({ change: 'replaced', differs: row.replacing } as const) : ({ change: 'created' } as const);
      const done = row.deployOnly ? 'Already on the node' : row.replacing ? `Replaced (${changeText(row.replacing)})` : 'Created';
      if (!row.deployOnly) await this.o.ports.putDevice(profileId, rec);
      job.transportFailures = 0;
      if (!job.head.deploy) return this.set(job, i, 'onboarded', `${done}.`, undefined, undefined, change);
      stage = 'deploy';
      this.set(job, i, 'pending', `${done}; deploying…`, undefined, undefined, change);
      const { task, outcome } = await this.o.ports.startDeploy(profileId, rec.deviceName);
      const end = await outcome;
      if (end.finished && end.task.state === 'completed') return this.set(job, i, 'deployed', `${done}; deployed (task ${task.taskId}).`, undefined, undefined, change);
      if (end.finished) return this.set(job, i, 'failed', `${done}, but the deployment failed (task ${task.taskId}): ${end.task.message || 'no reason given'}`, undefined, undefined, change);
      this.set(job, i, 'onboarded', `${done}; deployment task ${task.taskId} was at ${end.task.percent} % when the console stopped following it (${end.reason ?? 'no answer'}).`, undefined, undefined, change);
    } catch (e) {
      const issue = issuesOf(e)[0];
      const prefix = stage === 'deploy' ? `${row.replacing ? 'Replaced' : 'Created'}, but the deployment could not start: ` : '';
      this.set(job, i, 'failed', `${prefix}${messageOf(e)}`, stage === 'put' ? issue?.path : undefined);
      const code = e instanceof AppError ? e.code : '';
      job.transportFailures = isTransportFailure(code) ? job.transportFailures + 1 : 0;
      const forbidden = e instanceof AppError && e.details?.name === 'ACCESS_FORBIDDEN';
      if (endsSession(code) || forbidden || job.transportFailures >= MAX_TRANSPORT_FAILURES) this.stop(job, messageOf(e));
    }
  }

  /** The whole job stops: rows not started fail with the reason (so "retry failed rows" picks them up). */
  private stop(job: Job, reason: string): void {
    if (job.stopped !== undefined) return;
    job.stopped = reason;
    this.o.logger.warn('bulk onboarding stopped', { jobId: job.head.jobId, reason });
    this.leaveUnstarted(job, 'failed', `Not sent: ${reason}`);
  }

  /** Rows no worker has taken (queued, or not yet compared) get their final outcome now. */
  private leaveUnstarted(job: Job, outcome: 'cancelled' | 'failed', message: string): void {
    job.rows.forEach((row, i) => {
      if (row.result.outcome === 'pending' && !job.started.has(i)) this.set(job, i, outcome, message);
    });
  }

  private finish(job: Job): void {
    if (job.cancelled) this.leaveUnstarted(job, 'cancelled', 'Not sent: the job was cancelled.');
    if (job.stopped !== undefined) this.leaveUnstarted(job, 'failed', `Not sent: ${job.stopped}`);
    job.head.state = job.stopped !== undefined ? 'failed' : job.cancelled ? 'cancelled' : 'completed';
    if (job.stopped !== undefined) job.head.error = job.stopped;
    job.head.finishedAt = new Date().toISOString();
    this.flush(job);
    const s = snapshot(job, []);
    this.o.logger.info('bulk onboarding finished', { jobId: job.head.jobId, state: s.state, ...s.counts });
    if (!job.head.dryRun) this.o.ports.devicesChanged(job.head.profileId);
    if (!job.head.dryRun && job.head.deploy) this.o.ports.deploymentsEnded(job.head.profileId);
    this.prune();
  }

  private prune(): void {
    const finished = [...this.jobs.values()].filter((j) => j.head.state !== 'running');
    for (const j of finished.slice(0, Math.max(0, finished.length - this.keep))) this.jobs.delete(j.head.jobId);
  }

  private set(job: Job, i: number, outcome: BulkRowOutcome, message?: string, field?: string, dataError?: boolean, change?: Pick<BulkRowResult, 'change' | 'differs'>): void {
    const row = job.rows[i] as Row;
    row.result = { line: row.result.line, deviceName: row.result.deviceName, outcome, ...(message ? { message } : {}), ...(field ? { field } : {}), ...(dataError ? { dataError } : {}), ...(change ?? {}) };
    job.changed.add(i);
    job.progress.call();
  }

  /** Sends the progress event now (a cancel, the job's end), also when no row changed. */
  private flush(job: Job): void {
    job.progress.call();
    job.progress.flush();
  }

  /** One onboarding.progress event with the rows changed since the last one. */
  private emitProgress(job: Job): void {
    const rows = [...job.changed].sort((a, b) => a - b).map((i) => job.rows[i] as Row);
    job.changed.clear();
    this.o.emit('onboarding.progress', snapshot(job, rows));
  }
}

function snapshot(job: Job, rows: readonly Row[]): BulkJobState {
  const counts = { onboarded: 0, deployed: 0, skipped: 0, failed: 0, cancelled: 0, valid: 0 };
  let done = 0;
  for (const r of job.rows) {
    const o = r.result.outcome;
    if (o === 'pending') continue;
    done += 1;
    counts[o] += 1;
  }
  return { ...job.head, done, counts, rows: rows.map((r) => ({ ...r.result })) };
}
