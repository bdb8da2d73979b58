/**
 * The inventory channels in memory, for FakeBridge: stored devices and organizations per
 * profile (with their fetch time), deployments as tasks and bulk onboardings as jobs that the
 * test drives (`task()`, `finishTask()`, `progressJob()`, `runJob()`), syslog servers. Refusals
 * look like main's: a site ID in use comes back as `details.issues: [{ path: 'siteId', … }]`.
 */
import type { EventName, EventPayload, ParsedRequestOf, ResponseOf } from '../../../../shared/contract';
import { AppError, ErrorCodes } from '../../../../shared/model/errors';
import { recordView, sameRecord } from '../../../../electron/inventory/node-api';
import { DeviceRecord, type BulkJobState, type BulkRowResult, type DeviceView, type OrganizationView, type SyslogServer, type TaskState, type TaskStatus } from '../../../../shared/model/inventory';

type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void;
type What = 'devices' | 'organizations';

export interface FakeInventoryOptions {
  devices?: Record<string, DeviceView[]>;
  organizations?: Record<string, OrganizationView[]>;
  /** When each list was fetched; absent = now for a profile given lists, else never. */
  fetchedAt?: Record<string, string | null>;
  syslog?: Record<string, SyslogServer[]>;
  /** inventory.refresh waits this long, sending progress on the way. */
  refreshDelayMs?: number;
}


export class FakeInventory {
  /** Records of the last fetch the fake reports as unreadable. */
  unreadable = 0;
  readonly devices = new Map<string, DeviceView[]>();
  readonly organizations = new Map<string, OrganizationView[]>();
  readonly fetchedAt = new Map<string, Record<What, string | null>>();
  readonly syslog = new Map<string, SyslogServer[]>();
  readonly tasks = new Map<string, TaskStatus>();
  readonly jobs = new Map<string, { state: BulkJobState; devices: Map<number, DeviceRecord> }>();
  /** What a refresh finds on the node; absent = what is stored. */
  readonly remote = new Map<string, { devices?: DeviceView[]; organizations?: OrganizationView[] }>();
  /** Refuse the next syslog.create with this error (after the duplicate check). */
  syslogRefusal: AppError | undefined;
  private seq = 0;

  constructor(
    opts: FakeInventoryOptions,
    private readonly emit: Emit,
    private readonly now: () => number,
    private readonly requireSession: (profileId: string) => void,
    private readonly refreshDelayMs = opts.refreshDelayMs ?? 0,
  ) {
    const at = new Date(now()).toISOString();
    const ids = new Set([...Object.keys(opts.devices ?? {}), ...Object.keys(opts.organizations ?? {})]);
    for (const id of ids) {
      this.devices.set(id, [...(opts.devices?.[id] ?? [])]);
      this.organizations.set(id, [...(opts.organizations?.[id] ?? [])]);
      const f = opts.fetchedAt && id in opts.fetchedAt ? opts.fetchedAt[id]! : at;
      this.fetchedAt.set(id, { devices: f, organizations: f });
    }
    for (const [id, list] of Object.entries(opts.syslog ?? {})) this.syslog.set(id, [...list]);
  }

  private iso = () => new Date(this.now()).toISOString();
  private list = (profileId: string) => this.devices.get(profileId) ?? [];
  private changed = (profileId: string, what: What[]) => this.emit('inventory.changed', { profileId, what });

  snapshotDevices(profileId: string): ResponseOf<'inventory.devices'> {
    return { profileId, fetchedAt: this.fetchedAt.get(profileId)?.devices ?? null, items: this.list(profileId), unreadable: this.unreadable };
  }

  snapshotOrganizations(profileId: string): ResponseOf<'inventory.organizations'> {
    return { profileId, fetchedAt: this.fetchedAt.get(profileId)?.organizations ?? null, items: this.organizations.get(profileId) ?? [], unreadable: 0 };
  }

  async refresh({ profileId, what }: ParsedRequestOf<'inventory.refresh'>): Promise<ResponseOf<'inventory.refresh'>> {
    this.requireSession(profileId);
    const kinds: What[] = what === 'all' ? ['organizations', 'devices'] : [what];
    const remote = this.remote.get(profileId);
    for (const kind of kinds) {
      const items = (kind === 'devices' ? (remote?.devices ?? this.list(profileId)) : (remote?.organizations ?? this.organizations.get(profileId) ?? [])) as unknown[];
      const total = items.length;
      this.emit('inventory.progress', { profileId, what: kind, done: 0, total: null });
      for (let done = 0; done < total; done = Math.min(total, done + 500)) {
        if (this.refreshDelayMs) await new Promise((r) => setTimeout(r, this.refreshDelayMs / Math.max(1, Math.ceil(total / 500))));
        this.emit('inventory.progress', { profileId, what: kind, done, total });
      }
      this.emit('inventory.progress', { profileId, what: kind, done: total, total });
      if (kind === 'devices') this.devices.set(profileId, [...(items as DeviceView[])]);
      else this.organizations.set(profileId, [...(items as OrganizationView[])]);
    }
    const at = this.iso();
    const old = this.fetchedAt.get(profileId) ?? { devices: null, organizations: null };
    this.fetchedAt.set(profileId, { ...old, ...Object.fromEntries(kinds.map((k) => [k, at])) });
    this.changed(profileId, kinds);
    return { devices: this.list(profileId).length, organizations: this.organizations.get(profileId)?.length ?? 0, fetchedAt: at };
  }

  get(profileId: string, deviceName: string): DeviceView {
    this.requireSession(profileId);
    const d = this.list(profileId).find((x) => x.deviceName === deviceName);
    if (!d) throw new AppError('api.4015', `The node has no device named "${deviceName}".`, 'Refresh the devices list.', { status: 404 });
    return d;
  }

  nextSiteId(profileId: string): { siteId: string } {
    this.requireSession(profileId);
    const used = new Set(this.list(profileId).map((d) => Number(d.siteId)));
    let n = 1;
    while (used.has(n)) n++;
    return { siteId: String(n) };
  }

  /** The node's checks of a PUT (MN-42): organization, then the site ID. */
  private check(profileId: string, device: DeviceRecord): void {
    const orgs = this.organizations.get(profileId) ?? [];
    if (orgs.length && !orgs.some((o) => o.name === device.orgName)) {
      throw new AppError('api.4016', `The organization "${device.orgName}" does not exist on the node.`, 'Choose an existing organization, or refresh the organizations.', {
        status: 404,
        details: { issues: [{ path: 'orgName', message: `No organization "${device.orgName}" on the node.` }] },
      });
    }
    const holder = this.list(profileId).find((d) => Number(d.siteId) === Number(device.siteId) && d.deviceName !== device.deviceName);
    if (holder) {
      throw new AppError('api.0', `Global device id ${device.siteId} is already in use`, 'Choose another site ID, e.g. the next free one.', {
        status: 500,
        details: { issues: [{ path: 'siteId', message: `Global device id ${device.siteId} is already in use (by ${holder.deviceName}).` }] },
      });
    }
  }

  /** Saves (or replaces) a device; answers whether anything changed. */
  private put(profileId: string, device: DeviceRecord): { view: DeviceView; changed: boolean } {
    this.check(profileId, device);
    const list = this.list(profileId);
    const old = list.find((d) => d.deviceName === device.deviceName);
    if (old && sameRecord(device, old)) return { view: old, changed: false };
    const view: DeviceView = { ...recordView(device), lastTaskId: old?.lastTaskId ?? null };
    this.devices.set(profileId, old ? list.map((d) => (d === old ? view : d)) : [...list, view]);
    return { view, changed: true };
  }

  onboard({ profileId, device }: ParsedRequestOf<'devices.onboard'>): DeviceView {
    this.requireSession(profileId);
    const { view } = this.put(profileId, device);
    this.changed(profileId, ['devices']);
    return view;
  }

  private setStatus(profileId: string, deviceName: string, patch: Partial<DeviceView>): void {
    this.devices.set(
      profileId,
      this.list(profileId).map((d) => (d.deviceName === deviceName ? { ...d, ...patch } : d)),
    );
  }

  deploy({ profileId, deviceName }: ParsedRequestOf<'devices.deploy'>): TaskStatus {
    const device = this.get(profileId, deviceName);
    if (device.deploymentStatus === 'deploying') throw new AppError('api.4007', `A deployment of ${deviceName} is already running.`, 'Wait for it to finish.', { status: 400 });
    const taskId = String(++this.seq + 500);
    const task: TaskStatus = { profileId, taskId, deviceName, state: 'pending', percent: 0, message: 'Deployment queued.', startedAt: this.iso(), endedAt: null };
    this.tasks.set(taskId, task);
    this.setStatus(profileId, deviceName, { deploymentStatus: 'deploying', lastTaskId: taskId });
    this.emit('task.progress', task);
    return task;
  }

  getTask(profileId: string, taskId: string): TaskStatus {
    const t = this.tasks.get(taskId);
    if (t && t.profileId === profileId) return t;
    const d = this.list(profileId).find((x) => x.lastTaskId === taskId);
    if (d?.deploymentStatus === 'deploying') return { profileId, taskId, deviceName: d.deviceName, state: 'in-progress', percent: 50, message: 'Configuration.', startedAt: this.iso(), endedAt: null };
    throw new AppError('api.4015', `The node has no task ${taskId}.`, 'It may have been removed; deploy again to follow a new one.', { status: 404 });
  }

  /** Moves a task on, as main's task follower would. */
  task(taskId: string, patch: { state?: TaskState; percent?: number; message?: string }): TaskStatus {
    const old = this.tasks.get(taskId);
    if (!old) throw new Error(`no task ${taskId}`);
    const done = patch.state === 'completed' || patch.state === 'failed';
    const t: TaskStatus = { ...old, ...patch, ...(done ? { endedAt: this.iso() } : {}) };
    this.tasks.set(taskId, t);
    if (done) {
      this.setStatus(t.profileId, t.deviceName, { deploymentStatus: t.state === 'completed' ? 'deployed' : 'failed' });
      this.changed(t.profileId, ['devices']);
    }
    this.emit('task.progress', t);
    return t;
  }

  finishTask(taskId: string, state: 'completed' | 'failed', message = state === 'completed' ? 'Deployment completed.' : 'Configuration failed: the device did not answer.'): TaskStatus {
    return this.task(taskId, { state, percent: state === 'completed' ? 100 : (this.tasks.get(taskId)?.percent ?? 50), message });
  }

  startJob(req: ParsedRequestOf<'onboarding.start'>): BulkJobState {
    this.requireSession(req.profileId);
    const jobId = `job-${++this.seq}`;
    // Like main: every row checked again with DeviceRecord; a bad one fails alone.
    const devices = new Map<number, DeviceRecord>();
    const rows: BulkRowResult[] = req.rows.map((r) => {
      const parsed = DeviceRecord.safeParse(r.device);
      if (parsed.success) {
        devices.set(r.line, parsed.data);
        return { line: r.line, deviceName: r.device.deviceName, outcome: 'pending' };
      }
      const issue = parsed.error.issues[0]!;
      return { line: r.line, deviceName: r.device.deviceName, outcome: 'failed', field: issue.path.join('.'), message: issue.message };
    });
    const failed = rows.filter((r) => r.outcome === 'failed').length;
    const state: BulkJobState = {
      jobId,
      profileId: req.profileId,
      dryRun: req.dryRun,
      deploy: req.deploy,
      concurrency: req.concurrency,
      state: 'running',
      total: rows.length,
      done: failed,
      counts: { onboarded: 0, deployed: 0, skipped: 0, failed, cancelled: 0, valid: 0 },
      startedAt: this.iso(),
      finishedAt: null,
      rows,
    };
    this.jobs.set(jobId, { state, devices });
    return state;
  }

  getJob(jobId: string): BulkJobState {
    const j = this.jobs.get(jobId);
    if (!j) throw new AppError(ErrorCodes.notFound, 'That bulk onboarding is gone.', 'Start it again.');
    return j.state;
  }

  /** Rows of a job got their outcome; the event carries just those rows. */
  progressJob(jobId: string, results: BulkRowResult[], finish?: BulkJobState['state']): BulkJobState {
    const j = this.jobs.get(jobId)!;
    const byLine = new Map(results.map((r) => [r.line, r]));
    const rows = j.state.rows.map((r) => byLine.get(r.line) ?? r);
    const counts = { onboarded: 0, deployed: 0, skipped: 0, failed: 0, cancelled: 0, valid: 0 };
    for (const r of rows) if (r.outcome !== 'pending') counts[r.outcome] += 1;
    const done = rows.filter((r) => r.outcome !== 'pending').length;
    j.state = { ...j.state, rows, counts, done, ...(finish ? { state: finish, finishedAt: this.iso() } : {}) };
    this.emit('onboarding.progress', { ...j.state, rows: results });
    return j.state;
  }

  /** Runs every pending row like main: onboard (and deploy) or check, with the node's refusals as failures. */
  runJob(jobId: string, chunk = 25): BulkJobState {
    const j = this.jobs.get(jobId)!;
    const { profileId, dryRun, deploy } = j.state;
    const pending = j.state.rows.filter((r) => r.outcome === 'pending');
    for (let i = 0; i < pending.length; i += chunk) {
      const results = pending.slice(i, i + chunk).map((r): BulkRowResult => {
        const device = j.devices.get(r.line)!;
        try {
          if (dryRun) {
            this.check(profileId, device);
            return { ...r, outcome: 'valid' };
          }
          const { changed } = this.put(profileId, device);
          if (!changed) return { ...r, outcome: 'skipped', message: 'Already on the node with the same record.' };
          if (deploy) this.setStatus(profileId, device.deviceName, { deploymentStatus: 'deployed' });
          return { ...r, outcome: deploy ? 'deployed' : 'onboarded' };
        } catch (e) {
          const err = e as AppError;
          const issue = (err.details?.issues as { path: string; message: string }[] | undefined)?.[0];
          return { ...r, outcome: 'failed', message: issue?.message ?? err.message, ...(issue ? { field: issue.path } : {}) };
        }
      });
      this.progressJob(jobId, results, i + chunk >= pending.length ? 'completed' : undefined);
    }
    if (!dryRun) this.changed(profileId, ['devices']);
    return j.state;
  }

  cancelJob(jobId: string): BulkJobState {
    const j = this.jobs.get(jobId);
    if (!j) return this.getJob(jobId);
    if (j.state.state !== 'running') return j.state;
    const results = j.state.rows.filter((r) => r.outcome === 'pending').map((r) => ({ ...r, outcome: 'cancelled' as const, message: 'Cancelled before it was sent.' }));
    return this.progressJob(jobId, results, 'cancelled');
  }

  syslogList(profileId: string): SyslogServer[] {
    this.requireSession(profileId);
    return this.syslog.get(profileId) ?? [];
  }

  syslogCreate({ profileId, server }: ParsedRequestOf<'syslog.create'>): SyslogServer[] {
    const list = this.syslogList(profileId);
    if (list.some((s) => s.host.toLowerCase() === server.host.toLowerCase() && s.port === server.port)) {
      throw new AppError(ErrorCodes.validation, `${server.host} already has a syslog server on port ${server.port}.`, 'Use another port, or leave the existing server as it is.', {
        details: { issues: [{ path: 'port', message: `${server.host} already receives syslog on port ${server.port}.` }] },
      });
    }
    if (this.syslogRefusal) {
      const e = this.syslogRefusal;
      this.syslogRefusal = undefined;
      throw e;
    }
    const next = [...list, server];
    this.syslog.set(profileId, next);
    return next;
  }
}
