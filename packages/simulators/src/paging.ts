/** Paging of the /mgmt list calls (MN-34), a test's page cap (MN-47) and 204 for empty pages (MN-27). */
import { invalidRequest } from './device-rules';
import { json, type Reply } from './http';
import type { SimContext } from './routes';
import type { MgmtFaultHooks } from './fault-hooks';

export const DEFAULT_PAGE_LIMIT = 25;
export const MAX_PAGE_LIMIT = 500;

/** MN-34: offset default 0, limit default 25 (1..500); anything else is 4017. */
function paging(query: URLSearchParams): { offset: number; limit: number } {
  const read = (name: string, fallback: number, min: number, max: number) => {
    const raw = query.get(name);
    if (raw === null || raw === '') return fallback;
    if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) throw invalidRequest(`${name} must be a whole number from ${min} to ${max}.`);
    return Number(raw);
  };
  return { offset: read('offset', 0, 0, Number.MAX_SAFE_INTEGER), limit: read('limit', DEFAULT_PAGE_LIMIT, 1, MAX_PAGE_LIMIT) };
}

/** A page of a /mgmt list: `limit` records, fewer under a test's page cap (MN-47). */
export function pageOf<T>(query: URLSearchParams, faults: MgmtFaultHooks, slice: (offset: number, size: number) => T[]): T[] {
  const { offset, limit } = paging(query);
  return slice(offset, faults.pageSize(limit));
}

/** MN-27: an empty page answers 204 when a test asks for it. */
export function listReply(ctx: SimContext, empty: boolean, body: object): Reply {
  return empty && ctx.faults.emptyListAs204() ? { status: 204 } : json(200, body);
}
