/**
 * An in-memory management node behind a fake `session.request`: device list (paged, with
 * totalCount), single GET and PUT with the MN-42 refusals, deployments whose tasks finish after
 * a few polls, and syslog servers. Errors are made by the mgmt client's own error mapping from
 * the bodies a node sends, so the service sees exactly what it sees in production. Counts calls
 * in flight.
 */
import { BulkJobs, type BulkTiming } from '../../../electron/inventory/bulk';
import { bulkPorts } from '../../../electron/app/services';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger } from '../../../electron/log';
import { errorFromResponse } from '../../../electron/mgmt/errors';
import { InventoryService, type InventoryTiming } from '../../../electron/inventory/service';
import { openInventoryStore } from '../../../electron/inventory/store/sqlite-inventory-store';
import type { EventName } from '../../../shared/contract';

interface NodeDevice {
  deviceName: string;
  siteId: string;
  orgName: string;
  serialNumber: string;
  deviceGroup: string;
  locationInfo: { country: string; latitude: string; longitude: string };
  deploymentStatus: string;
  lastTaskId: string | null;
}

const customError = (status: number, code: number, message: string, description?: string) =>
  errorFromResponse({ status, contentType: 'application/json', body: JSON.stringify({ error: { http_status_code: status, code, message, ...(description ? { description } : {}) } }) });

/** The node's answer time; an aborted call ends at once, as an HTTP request does (global timers: tests may fake them). */
function answerAfter(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', aborted);
      resolve();
    }, ms);
    if (signal?.aborted) aborted();
    else signal?.addEventListener('abort', aborted, { once: true });
  });
}

export class FakeNode {
  readonly devices = new Map<string, NodeDevice>();
  readonly orgs = new Set(['Org-A', 'Org-B', 'Org-C']);
  readonly tasks = new Map<string, { device: string; polls: number; fails: boolean }>();
  inFlight = 0;
  maxInFlight = 0;
  readonly calls: string[] = [];
  /** Real ms each call takes (plus up to `jitterMs`). */
  delayMs = 2;
  jitterMs = 3;
  /** Polls a task stays in progress. */
  taskPolls = 3;
  /** Device names whose deployment fails. */
  readonly failDeploy = new Set<string>();
  /** Set to make every later call fail with this error (e.g. the session ended). */
  failAll: Error | undefined;
  authMode: 'basic' | 'oauth' = 'basic';
  sessionState = 'signed-in';
  private nextTask = 1;

  count(method: string, prefix = ''): number {
    return this.calls.filter((c) => c.startsWith(`${method} ${prefix}`)).length;
  }

  seed(n: number, org = 'Org-A'): void {
    for (let i = 1; i <= n; i += 1) {
      const d = deviceFields(i, org);
      this.devices.set(d.deviceName, { ...d, deploymentStatus: 'DEPLOYED', lastTaskId: null });
    }
  }

  request = async <T = unknown>(method: string, p: string, body?: unknown, opts?: { signal?: AbortSignal }): Promise<T | undefined> => {
    this.calls.push(`${method} ${p}`);
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    try {
      // Like an HTTP request, an aborted call ends at once.
      await answerAfter(this.delayMs + Math.random() * this.jitterMs, opts?.signal);
      if (this.failAll) throw this.failAll;
      return this.handle(method, p, body) as T | undefined;
    } finally {
      this.inFlight -= 1;
    }
  };

  private handle(method: string, p: string, body: unknown): unknown {
    const url = new URL(p, 'https://node');
    const parts = url.pathname.split('/').map(decodeURIComponent);
    if (method === 'GET' && url.pathname === '/mgmt/sdwan/workflow/devices') {
      const offset = Number(url.searchParams.get('offset'));
      const limit = Number(url.searchParams.get('limit'));
      const all = [...this.devices.values()];
      const page = all.slice(offset, offset + limit);
      return page.length === 0 ? undefined : { totalCount: all.length, devices: page };
    }
    if (method === 'GET' && url.pathname === '/mgmt/organization/orgs') {
      return { totalCount: this.orgs.size, organizations: [...this.orgs].map((name) => ({ uuid: `u-${name}`, name, parent: null, subscriptionPlan: 'Gold' })) };
    }
    if (method === 'GET' && parts[5] === 'device' && parts.length === 7) {
      const d = this.devices.get(parts[6]!);
      if (!d) throw customError(404, 4015, 'NO_DATA_FOUND', `No device named ${parts[6]}.`);
      return { 'mgmt.sdwan-device-workflow': d };
    }
    if (method === 'PUT' && parts[5] === 'device') {
      const rec = (body as Record<string, NodeDevice>)['mgmt.sdwan-device-workflow']!;
      if (!this.orgs.has(rec.orgName)) throw customError(404, 4016, 'ORG_NOT_FOUND', `orgName: no organization named ${rec.orgName}.`);
      const holder = [...this.devices.values()].find((d) => Number(d.siteId) === Number(rec.siteId) && d.deviceName !== rec.deviceName);
      if (holder) throw customError(500, 0, `Global device id ${rec.siteId} is already in use`, `siteId: device ${holder.deviceName} uses global device id ${rec.siteId}.`);
      const stored: NodeDevice = { ...rec, siteId: String(Number(rec.siteId)), deploymentStatus: 'SAVED', lastTaskId: this.devices.get(rec.deviceName)?.lastTaskId ?? null };
      this.devices.set(rec.deviceName, stored);
      return { 'mgmt.sdwan-device-workflow': stored };
    }
    if (method === 'POST' && parts[6] === 'deploy') {
      const name = parts[7]!;
      const d = this.devices.get(name);
      if (!d) throw customError(404, 4015, 'NO_DATA_FOUND', `No device named ${name}.`);
      const id = String(this.nextTask++);
      this.tasks.set(id, { device: name, polls: 0, fails: this.failDeploy.has(name) });
      d.deploymentStatus = 'DEPLOYING';
      d.lastTaskId = id;
      return { TaskResponse: { 'task-id': id, link: `/mgmt/tasks/task/${id}` } };
    }
    if (method === 'GET' && url.pathname.startsWith('/mgmt/tasks/task/')) {
      const t = this.tasks.get(parts[4]!);
      if (!t) throw customError(404, 4015, 'NO_DATA_FOUND', 'No task.');
      t.polls += 1;
      const done = t.polls > this.taskPolls;
      const status = !done ? 'IN_PROGRESS' : t.fails ? 'FAILED' : 'COMPLETED';
      if (done) this.devices.get(t.device)!.deploymentStatus = t.fails ? 'FAILED' : 'DEPLOYED';
      return {
        'mgmt-tasks.task': {
          'mgmt-tasks.id': parts[4],
          'mgmt-tasks.task-name': `Deploy ${t.device}`,
          'mgmt-tasks.task-status': status,
          'mgmt-tasks.percentage-completion': done ? (t.fails ? 50 : 100) : 20,
          'mgmt-tasks.progressmessages': { 'mgmt-tasks.progressmessage': [{ 'mgmt-tasks.message': `poll ${t.polls}` }] },
          'mgmt-tasks.errormessages': { 'mgmt-tasks.errormessage': t.fails && done ? [{ 'mgmt-tasks.message': 'Commit not acknowledged' }] : [] },
          'mgmt-tasks.start-time': '2026-05-01T10:00:00.000Z',
          'mgmt-tasks.end-time': done ? '2026-05-01T10:00:07.000Z' : null,
        },
      };
    }
    throw customError(404, 0, 'Not Found');
  }
}

export function deviceFields(i: number, orgName = 'Org-A') {
  return {
    deviceName: `branch-${String(i).padStart(4, '0')}`,
    siteId: String(i),
    orgName,
    serialNumber: `SN-${i}`,
    deviceGroup: 'Retail',
    locationInfo: { country: 'DE', latitude: '52.52', longitude: '13.405' },
  };
}

export interface ServiceHarness {
  node: FakeNode;
  service: InventoryService;
  /** Bulk jobs over the service, through the same ports the app builds. */
  jobs: BulkJobs;
  events: Array<{ event: EventName; payload: unknown }>;
  logs: string[];
  close(): Promise<void>;
}

export function startService(timing: InventoryTiming & BulkTiming = {}): ServiceHarness {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-inv-svc-'));
  const node = new FakeNode();
  const events: ServiceHarness['events'] = [];
  const logs: string[] = [];
  const service = new InventoryService({
    store: openInventoryStore(path.join(dir, 'inventory.db')),
    session: () => ({ request: node.request, status: () => ({ authMode: node.authMode, state: node.sessionState }) }),
    emit: (event, payload) => events.push({ event, payload }),
    logger: createLogger((l) => logs.push(`${l.level} ${l.msg} ${JSON.stringify(l.fields ?? {})}`), { level: 'debug' }),
    pollMs: 5,
    ...timing,
  });
  const jobs = new BulkJobs({ ports: bulkPorts(service), emit: (event, payload) => events.push({ event, payload }), logger: createLogger(() => undefined), ...timing });
  return {
    node,
    service,
    jobs,
    events,
    logs,
    async close() {
      await Promise.all([jobs.close(), service.close()]);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
