/**
 * Paging of the node's list calls (MN-34, MN-47): `offset`/`limit` with limit 500, `offset`
 * advanced by the number of records received (a node may cap its pages below `limit`), stopped
 * at `totalCount`. An empty page or a 204 (MN-27) before the total ends the walk as a *short
 * read*, reported in the result and logged; it never loops. Cancellable with an AbortSignal.
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { abortable, cancelledError } from '../net/retry';
import type { Logger } from '../log';
import type { NodeRequest, Page } from '../mgmt/node-answer';

export const PAGE_LIMIT = 500;
/** A node that keeps raising its total cannot keep us paging for ever. */
const MAX_RECORDS = 1_000_000;

export interface PageAllOptions<T> {
  request: NodeRequest;
  /** The list path without a query, e.g. `/mgmt/sdwan/workflow/devices`. */
  path: string;
  /** Reads the records and the total out of one answer (never called for a 204). */
  read(body: unknown): Page<T>;
  limit?: number;
  signal?: AbortSignal;
  /** After every page (and once before the first): records received so far and the total (null until known). */
  onProgress?(done: number, total: number | null): void;
  logger?: Logger;
}

export interface PageAllResult<T> {
  items: T[];
  /** The last total the node reported (the number of records when it reported none). */
  total: number;
  pages: number;
  /** The node stopped sending records before its total was reached. */
  shortRead: boolean;
}

export async function pageAll<T>(o: PageAllOptions<T>): Promise<PageAllResult<T>> {
  const limit = o.limit ?? PAGE_LIMIT;
  const items: T[] = [];
  let total: number | undefined;
  let pages = 0;
  let shortRead = false;
  o.onProgress?.(0, null);
  for (;;) {
    if (o.signal?.aborted) throw cancelledError('Reading the list');
    const body = await abortable(o.request('GET', `${o.path}?offset=${items.length}&limit=${limit}`, undefined, o.signal ? { signal: o.signal } : {}), o.signal, 'Reading the list');
    pages += 1;
    const page = body === undefined ? { items: [], total } : o.read(body);
    if (page.total !== undefined) total = page.total;
    for (const item of page.items) items.push(item);
    o.onProgress?.(items.length, total ?? null);
    if (total !== undefined && items.length >= total) break;
    if (page.items.length === 0) {
      // Without a total an empty page is the end; with one it is a short read.
      shortRead = total !== undefined;
      if (shortRead) o.logger?.warn('short read: the node stopped sending records before its total', { path: o.path, received: items.length, total, pages, status: body === undefined ? 204 : 200 });
      break;
    }
    if (items.length > MAX_RECORDS) {
      throw new AppError(ErrorCodes.unexpectedResponse, `The node kept sending records of ${o.path} past ${MAX_RECORDS.toLocaleString('en')}.`, 'The node’s paging looks broken; show this to its administrator.');
    }
  }
  return { items, total: total ?? items.length, pages, shortRead };
}
