/**
 * Paging a node's lists into the store (issue 4, 8; spec 4.2, MN-47): devices with their state on
 * the node (the appliance list), or organizations; what cannot be read is counted and said, a short
 * read is stored and said. The inventory's list refreshes (refresh.ts) run these, one refresh per
 * list at a time.
 */
import type { EmitEvent } from '../../shared/contract';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { Logger } from '../log';
import type { NodeRequest } from '../mgmt/node-answer';
import { throttle } from '../throttle';
import { APPLIANCES_PATH, applianceFromNode, readAppliancesPage } from './appliances';
import { DEVICES_PATH, deviceFromNode, ORGANIZATIONS_PATH, organizationFromNode, readDevicesPage, readOrganizationsPage } from './node-api';
import { pageAll } from './paging';
import type { InventoryKind, InventoryStore } from './store/inventory-store';

/** What one paged list brought in. */
export interface ListRefresh<T> {
  items: T[];
  fetchedAt: string;
  shortRead: boolean;
  /** Records the console could not read (left out, logged). */
  unreadable: number;
}

/** What paging one connection's list needs. */
export interface ListPagingDeps {
  store: InventoryStore;
  request: NodeRequest;
  emit: EmitEvent;
  log: Logger;
  /** Least time between two inventory.progress events of one list. */
  progressIntervalMs?: number | undefined;
  /** Keeps the wrapper-key namespace a node's answer revealed. */
  learnNamespace(namespace: string | undefined): Promise<void>;
}

/** One list paged in whole and stored (a devices list with its state); `signal` stops it. */
export async function pageList(d: ListPagingDeps, profileId: string, what: InventoryKind, signal: AbortSignal): Promise<ListRefresh<unknown>> {
  const progress = throttle((done: number, total: number | null) => d.emit('inventory.progress', { profileId, what, done, total }), d.progressIntervalMs ?? 100);
  const logger = d.log.child(what);
  let namespace: string | undefined;
  const read = (body: unknown) => {
    const page = what === 'devices' ? readDevicesPage(body) : readOrganizationsPage(body);
    namespace ??= page.namespace;
    return page;
  };
  try {
    const r = await pageAll({ request: d.request, path: what === 'devices' ? DEVICES_PATH : ORGANIZATIONS_PATH, read, signal, onProgress: progress.call, logger });
    progress.flush();
    await d.learnNamespace(namespace);
    const fetchedAt = new Date().toISOString();
    if (what === 'organizations') {
      const { items, unreadable } = readAll(r.items, organizationFromNode);
      reportUnreadable(d, profileId, what, unreadable, r.items);
      await d.store.replaceOrganizations(profileId, items, fetchedAt, unreadable.length);
      reportShortRead(d, profileId, what, r.shortRead, r.items.length, r.total);
      return { items, fetchedAt, shortRead: r.shortRead, unreadable: unreadable.length };
    }
    const { items, unreadable } = readAll(r.items, deviceFromNode);
    reportUnreadable(d, profileId, what, unreadable, r.items);
    await d.store.replaceDevices(profileId, items, fetchedAt, unreadable.length);
    reportShortRead(d, profileId, what, r.shortRead, r.items.length, r.total);
    await readAppliances(d, profileId, signal);
    return { items, fetchedAt, shortRead: r.shortRead, unreadable: unreadable.length };
  } finally {
    progress.cancel();
  }
}

/**
 * The appliance list completes the devices with their state on the node. A node (or a user)
 * that does not serve it keeps the devices refresh whole: the old state stays, labelled with
 * the time it was fetched, and the operator is told why it is not newer (unless `quiet`: a
 * scheduled read). Resolves whether the state was read.
 */
export async function readAppliances(d: ListPagingDeps, profileId: string, signal: AbortSignal, quiet = false): Promise<boolean> {
  const logger = d.log.child('appliances');
  try {
    const r = await pageAll({ request: d.request, path: APPLIANCES_PATH, read: readAppliancesPage, signal, logger });
    const { items, unreadable } = readAll(r.items, applianceFromNode);
    reportUnreadable(d, profileId, 'appliance', unreadable, r.items);
    await d.store.replaceAppliances(profileId, items, new Date().toISOString(), unreadable.length);
    return true;
  } catch (e) {
    if (signal.aborted || (e instanceof AppError && e.code === ErrorCodes.cancelled)) throw e;
    const at = await d.store.fetchedAt(profileId, 'appliances');
    logger.warn('appliance list not read', { profileId, error: e instanceof Error ? e.message : String(e) });
    if (quiet) return false;
    d.emit('notice', {
      level: 'warning',
      message: `The devices were refreshed, but not their state on the node (reachability, sync): ${e instanceof Error ? e.message : String(e)}`,
      hint: at ? `The state shown is from ${at}.` : 'The state columns stay empty until the node serves its appliance list to this user.',
      code: 'inventory.appliances_failed',
    });
    return false;
  }
}

/** Records left out are counted, logged with a sample and said to the operator; never silently dropped. */
function reportUnreadable(d: ListPagingDeps, profileId: string, what: string, unreadable: number[], raw: unknown[]): void {
  if (unreadable.length === 0) return;
  d.log.warn('records left out: the console cannot read them', { profileId, what, unreadable: unreadable.length, sample: JSON.stringify(raw[unreadable[0]!]).slice(0, 300) });
  d.emit('notice', {
    level: 'warning',
    message: `${unreadable.length} ${what.replace(/s$/, '')} record(s) from the node could not be read and are not shown.`,
    hint: 'The log names one of them; the node may run a release whose records this console does not know.',
    code: 'inventory.unreadable',
  });
}

function reportShortRead(d: ListPagingDeps, profileId: string, what: InventoryKind, shortRead: boolean, received: number, total: number): void {
  if (!shortRead) return;
  d.log.warn('short read stored', { profileId, what, received, total });
  d.emit('notice', {
    level: 'warning',
    message: `The node listed ${total} ${what} but stopped sending after ${received}; the stored list is incomplete.`,
    hint: 'Refresh again later; if it stays short, show this to the node’s administrator.',
    code: 'inventory.short_read',
  });
}

/** Each raw record read with `read`; the positions of those it could not read. */
function readAll<T>(raw: readonly unknown[], read: (r: unknown) => T | undefined): { items: T[]; unreadable: number[] } {
  const items: T[] = [];
  const unreadable: number[] = [];
  raw.forEach((r, i) => {
    const item = read(r);
    if (item === undefined) unreadable.push(i);
    else items.push(item);
  });
  return { items, unreadable };
}

