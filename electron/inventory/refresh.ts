/**
 * The list refreshes of the signed-in nodes (issue 4, 22.6): a node's device or organization list
 * paged into the store (list-paging.ts), one refresh per list at a time, the device list read again
 * after a deployment, and the devices' state on the node read again on its own; the window is told
 * what changed. The inventory service (service.ts) composes it with its reads and its writes to the
 * node, and runs the scheduled state reads while a session is signed in.
 */
import type { EmitEvent } from '../../shared/contract';
import type { DeviceView } from '../../shared/model/inventory';
import type { StoredOrganization } from '../../shared/model/hierarchy';
import type { Logger } from '../log';
import type { NodeRequest } from '../mgmt/node-answer';
import type { InventoryKind, InventoryStore } from './store/inventory-store';
import { pageList, readAppliances, type ListPagingDeps, type ListRefresh } from './list-paging';

export interface RefreshResult {
  devices: number;
  organizations: number;
  fetchedAt: string;
}

/** What the refreshes need of the service that composes them (service.ts). */
export interface InventoryRefreshDeps {
  store: InventoryStore;
  /** The profile's signed-in session's request (InventoryService.request). */
  request(profileId: string): NodeRequest;
  emit: EmitEvent;
  log: Logger;
  /** Least time between two inventory.progress events of one list; default 100 ms. */
  progressIntervalMs?: number | undefined;
  /** Keeps the namespace a node's answer revealed. */
  learnNamespace(profileId: string, namespace: string | undefined): Promise<void>;
  /** Tells the window which stored lists of a node changed. */
  changed(profileId: string, what: InventoryKind[]): Promise<void>;
}

export class InventoryRefresh {
  private readonly refreshing = new Map<string, Promise<ListRefresh<unknown>>>();
  /** A device list refresh queued behind the running one, per profile (refreshAfter). */
  private readonly queued = new Map<string, Promise<void>>();
  private readonly stateRunning = new Set<string>();
  private readonly store: InventoryStore;
  private readonly log: Logger;
  private readonly closing = new AbortController();

  constructor(private readonly o: InventoryRefreshDeps) {
    this.store = o.store;
    this.log = o.log;
  }

  /**
   * Pages one list in and stores it whole; a refresh already running for it is joined (so no
   * single caller can abort it: a caller that stops waiting wraps it in `abortable`). Closing the
   * service aborts it.
   */
  refreshList(profileId: string, what: 'devices'): Promise<ListRefresh<DeviceView>>;
  refreshList(profileId: string, what: 'organizations'): Promise<ListRefresh<StoredOrganization>>;
  refreshList(profileId: string, what: InventoryKind): Promise<ListRefresh<unknown>> {
    const key = `${profileId}\u0000${what}`;
    const running = this.refreshing.get(key);
    if (running) return running;
    const work = pageList(this.paging(profileId), profileId, what, this.closing.signal).finally(() => this.refreshing.delete(key));
    this.refreshing.set(key, work);
    return work;
  }

  /** What paging a connection's lists needs (list-paging.ts). */
  private paging(profileId: string): ListPagingDeps {
    // The session looked up at each call, as each list's paging did before.
    return { store: this.store, request: (method, path, body, opts) => this.o.request(profileId)(method, path, body, opts), emit: this.o.emit, log: this.log, progressIntervalMs: this.o.progressIntervalMs, learnNamespace: (ns) => this.o.learnNamespace(profileId, ns) };
  }

  /**
   * After something changed on the node (a deployment ended): the device list and its state read
   * again, starting after any refresh already running (which may have listed the old status), then
   * the window told. One waits per profile; a second ask joins it. Failures are logged, not said:
   * the window shows how old the list is.
   */
  refreshAfter(profileId: string): Promise<void> {
    const waiting = this.queued.get(profileId);
    if (waiting) return waiting;
    const running = this.refreshing.get(`${profileId}\u0000devices`);
    const work = (running ? running.then(noop, noop) : Promise.resolve())
      .then(() => {
        this.queued.delete(profileId);
        return this.refreshList(profileId, 'devices');
      })
      .then(
        () => this.o.changed(profileId, ['devices']),
        (e: unknown) => this.log.info('device list not read again after a deployment', { profileId, error: e instanceof Error ? e.message : String(e) }),
      );
    this.queued.set(profileId, work);
    return work;
  }

  /**
   * One scheduled read of the devices' state on the node (the appliance list), for a connection
   * whose device list is stored; skipped while a list refresh (which reads it too) runs. Quiet on
   * failure: the age chip says how old the state is. Resolves true when it read the state.
   */
  async refreshState(profileId: string): Promise<boolean> {
    if (this.stateRunning.has(profileId) || this.refreshing.has(`${profileId}\u0000devices`)) return false;
    if ((await this.store.fetchedAt(profileId, 'devices')) === null) return false;
    this.stateRunning.add(profileId);
    try {
      if (!(await readAppliances(this.paging(profileId), profileId, this.closing.signal, true))) return false;
      await this.o.changed(profileId, ['devices']);
      return true;
    } catch (e) {
      this.log.info('device state not read on schedule', { profileId, error: e instanceof Error ? e.message : String(e) });
      return false;
    } finally {
      this.stateRunning.delete(profileId);
    }
  }

  /** inventory.refresh: pages the lists in, stores them, then says what changed. */
  async refresh(profileId: string, what: InventoryKind | 'all'): Promise<RefreshResult> {
    const kinds: InventoryKind[] = what === 'all' ? ['organizations', 'devices'] : [what];
    const done: InventoryKind[] = [];
    let fetchedAt = new Date().toISOString();
    try {
      for (const kind of kinds) {
        fetchedAt = (kind === 'devices' ? await this.refreshList(profileId, 'devices') : await this.refreshList(profileId, 'organizations')).fetchedAt;
        done.push(kind);
      }
    } finally {
      if (done.length > 0) await this.o.changed(profileId, done);
    }
    return { devices: await this.store.deviceCount(profileId), organizations: await this.store.organizationCount(profileId), fetchedAt };
  }

  /** Stops the refreshes running (they end with their abort); the service is closing. */
  close(): void {
    this.closing.abort();
  }
}

const noop = () => undefined;
