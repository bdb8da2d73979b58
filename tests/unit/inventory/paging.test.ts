/** pageAll against a fake node list: page cap, 204, short reads, a missing total, abort. */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../../electron/log';
import type { NodeRequest } from '../../../electron/mgmt/node-answer';
import { pageAll } from '../../../electron/inventory/paging';
import { readDevicesPage } from '../../../electron/inventory/node-api';

interface FakeList {
  total: number;
  /** The node sends at most this many records per page, whatever `limit` asks. */
  cap?: number;
  /** From this offset on the node answers an empty page (status 200) or 204. */
  emptyFrom?: number;
  emptyAs204?: boolean;
  /** Leave totalCount out. */
  noTotal?: boolean;
  delayMs?: number;
}

function fakeNode(list: FakeList) {
  const calls: Array<{ offset: number; limit: number }> = [];
  const request: NodeRequest = async <T,>(method: string, path: string) => {
    expect(method).toBe('GET');
    const url = new URL(path, 'https://node');
    const offset = Number(url.searchParams.get('offset'));
    const limit = Number(url.searchParams.get('limit'));
    calls.push({ offset, limit });
    if (list.delayMs) await new Promise((r) => setTimeout(r, list.delayMs));
    const end = list.emptyFrom !== undefined && offset >= list.emptyFrom ? offset : Math.min(list.total, offset + Math.min(limit, list.cap ?? limit));
    const devices = Array.from({ length: Math.max(0, end - offset) }, (_, i) => ({ deviceName: `d${offset + i}` }));
    if (devices.length === 0 && list.emptyAs204) return undefined;
    return { ...(list.noTotal ? {} : { totalCount: list.total }), devices } as T;
  };
  return { request, calls };
}

const names = (items: unknown[]) => items.map((d) => (d as { deviceName: string }).deviceName);

describe('pageAll', () => {
  it('pages with limit 500 until totalCount and reports progress', async () => {
    const node = fakeNode({ total: 1234 });
    const progress: Array<[number, number | null]> = [];
    const r = await pageAll({ request: node.request, path: '/mgmt/sdwan/workflow/devices', read: readDevicesPage, onProgress: (d, t) => progress.push([d, t]) });
    expect(node.calls).toEqual([
      { offset: 0, limit: 500 },
      { offset: 500, limit: 500 },
      { offset: 1000, limit: 500 },
    ]);
    expect(r).toMatchObject({ total: 1234, pages: 3, shortRead: false });
    expect(names(r.items)).toEqual(Array.from({ length: 1234 }, (_, i) => `d${i}`));
    expect(progress).toEqual([
      [0, null],
      [500, 1234],
      [1000, 1234],
      [1234, 1234],
    ]);
  });

  it('advances by the records received when the node caps its pages (MN-47)', async () => {
    const node = fakeNode({ total: 95, cap: 20 });
    const r = await pageAll({ request: node.request, path: '/x', read: readDevicesPage });
    expect(node.calls.map((c) => c.offset)).toEqual([0, 20, 40, 60, 80]);
    expect(new Set(names(r.items)).size).toBe(95);
    expect(r.shortRead).toBe(false);
  });

  it('ends at a 204 before the total as a short read, logged', async () => {
    const logs: string[] = [];
    const logger = createLogger((l) => logs.push(`${l.level} ${l.msg}`));
    const node = fakeNode({ total: 1200, emptyFrom: 1000, emptyAs204: true });
    const r = await pageAll({ request: node.request, path: '/x', read: readDevicesPage, logger });
    expect(r).toMatchObject({ total: 1200, shortRead: true, pages: 3 });
    expect(r.items).toHaveLength(1000);
    expect(logs.some((l) => l.startsWith('warn short read'))).toBe(true);
  });

  it('ends at an empty 200 page before the total as a short read, never looping', async () => {
    const node = fakeNode({ total: 50, cap: 10, emptyFrom: 30 });
    const r = await pageAll({ request: node.request, path: '/x', read: readDevicesPage });
    expect(r).toMatchObject({ shortRead: true, total: 50 });
    expect(r.items).toHaveLength(30);
    expect(node.calls).toHaveLength(4);
  });

  it('reads an empty list (204 at offset 0) as no records', async () => {
    const node = fakeNode({ total: 0, emptyAs204: true });
    const r = await pageAll({ request: node.request, path: '/x', read: readDevicesPage });
    expect(r).toMatchObject({ items: [], total: 0, shortRead: false, pages: 1 });
  });

  it('without a totalCount walks until the first empty page', async () => {
    const node = fakeNode({ total: 120, cap: 50, noTotal: true });
    const r = await pageAll({ request: node.request, path: '/x', read: readDevicesPage });
    expect(r).toMatchObject({ total: 120, shortRead: false });
    expect(node.calls.map((c) => c.offset)).toEqual([0, 50, 100, 120]);
  });

  it('stops when aborted, also in the middle of a page', async () => {
    const node = fakeNode({ total: 5000, cap: 100, delayMs: 20 });
    const abort = new AbortController();
    const walk = pageAll({ request: node.request, path: '/x', read: readDevicesPage, signal: abort.signal, onProgress: (done) => done >= 300 && abort.abort() });
    await expect(walk).rejects.toMatchObject({ code: 'cancelled' });
    // The walk is sequential: once it has ended, no further page can be asked for.
    expect(node.calls).toHaveLength(3);

    // A page the node never answers: the abort ends the walk (and reaches the request) all the same.
    const early = new AbortController();
    const seen: Array<AbortSignal | undefined> = [];
    const never: NodeRequest = (_m, _p, _b, opts) => (seen.push(opts?.signal), new Promise(() => undefined));
    const p = pageAll({ request: never, path: '/x', read: readDevicesPage, signal: early.signal });
    expect(seen).toEqual([early.signal]);
    early.abort();
    await expect(p).rejects.toMatchObject({ code: 'cancelled' });
  });

  it('refuses an answer that is not a list', async () => {
    const request: NodeRequest = async <T,>() => ({ totalCount: 3, devices: 'nope' }) as T;
    await expect(pageAll({ request, path: '/x', read: readDevicesPage })).rejects.toMatchObject({ code: 'mgmt.unexpected_response' });
  });
});
