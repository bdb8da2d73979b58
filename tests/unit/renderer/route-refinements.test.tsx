// @vitest-environment jsdom
/**
 * The page-setup the devices, ZTA and alarms pages share (useRouteRefinements, app/search.ts),
 * driven through a router built as app/router.tsx builds those routes (the same search schemas,
 * defaults and middlewares): what the page shows, what reaches the address and when, and what
 * opening and closing an item do to the history.
 */
import '@testing-library/jest-dom/vitest';
import { act, render, screen } from '@testing-library/react';
import { createMemoryHistory, createRootRoute, createRoute, createRouter, RouterProvider, retainSearchParams, stripSearchParams, type SearchSchemaInput } from '@tanstack/react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { ADDRESS_WRITE_DELAY_MS } from '../../../renderer/app/useAddressDraft';
import { devicesDefaults, devicesSearch, parseSearch, rootSearch, stringifySearch, useRouteRefinements, type DevicesSearch, type RefinementsOf } from '../../../renderer/app/search';
import { until } from '../../support/until';

let page: ReturnType<typeof useRouteRefinements<'/devices'>> | undefined;
let renders: RefinementsOf<'/devices'>[] = [];

function Probe() {
  page = useRouteRefinements('/devices');
  renders.push(page.view);
  return <p data-testid="opened">{page.opened}</p>;
}

function devicesRouter(at: string) {
  const rootRoute = createRootRoute({
    validateSearch: (raw: { connection?: string } & SearchSchemaInput) => rootSearch.parse(raw),
    search: { middlewares: [retainSearchParams(['connection'])] },
  });
  const devicesRoute = createRoute({
    getParentRoute: () => rootRoute,
    path: 'devices',
    validateSearch: (raw: Partial<DevicesSearch> & SearchSchemaInput) => devicesSearch.parse(raw),
    search: { middlewares: [stripSearchParams(devicesDefaults)] },
    component: Probe,
  });
  const history = createMemoryHistory({ initialEntries: [at] });
  const router = createRouter({ routeTree: rootRoute.addChildren([devicesRoute]), history, parseSearch, stringifySearch });
  return { router, history };
}

const search = (h: ReturnType<typeof createMemoryHistory>) => Object.fromEntries(new URLSearchParams(h.location.search));

afterEach(() => {
  page = undefined;
  renders = [];
});

describe('useRouteRefinements', () => {
  it('shows the address without the opened item and the connection, refines at once and writes the address once input pauses, replacing the entry', async () => {
    const { router, history } = devicesRouter('/devices?q=edge&status=failed&device=r1&connection=p1');
    render(<RouterProvider router={router as never} />);
    await screen.findByTestId('opened');
    expect(page!.opened).toBe('r1');
    const { device: _none, ...refinements } = devicesDefaults;
    expect(page!.view).toEqual({ ...refinements, q: 'edge', status: 'failed' });
    expect(page!.view).not.toHaveProperty('connection');
    expect(page!.view).not.toHaveProperty('device');
    const entries = history.length;

    const typedAt = Date.now();
    act(() => page!.refine({ q: 'edge-1' }));
    // The page shows the refinement at once; the address has not moved yet.
    expect(page!.view.q).toBe('edge-1');
    expect(search(history).q).toBe('edge');
    await until('the address to take the search', () => search(history).q === 'edge-1');
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(ADDRESS_WRITE_DELAY_MS - 5);
    // Replaced, not added: Back does not walk through every refinement.
    expect(history.length).toBe(entries);
    expect(search(history)).toEqual({ q: 'edge-1', status: 'failed', device: 'r1', connection: 'p1' });
  });

  it('opening an item writes a waiting refinement first and adds an entry that closing goes back from; an item opened from an address closes in place', async () => {
    const { router, history } = devicesRouter('/devices?connection=p1');
    render(<RouterProvider router={router as never} />);
    await screen.findByTestId('opened');
    const entries = history.length;

    act(() => page!.refine({ org: 'Acme' }));
    act(() => page!.open('branch-7'));
    await until('the device to open', () => page!.opened === 'branch-7');
    expect(search(history)).toEqual({ org: 'Acme', device: 'branch-7', connection: 'p1' });
    expect(history.length).toBe(entries + 1);

    act(() => page!.close());
    await until('the device to close', () => page!.opened === '');
    // Back to the entry before it, which the refinement replaced: no entry twice.
    expect(history.length).toBe(entries + 1);
    expect(search(history)).toEqual({ org: 'Acme', connection: 'p1' });
    expect(page!.view.org).toBe('Acme');

    // Forward opens it again; from an address (no entry of its own), closing removes it in place.
    act(() => history.forward());
    await until('Forward to open the device again', () => page!.opened === 'branch-7');
    const { router: r2, history: h2 } = devicesRouter('/devices?device=r9&connection=p1');
    render(<RouterProvider router={r2 as never} />);
    await until('the second window to open r9', () => page!.opened === 'r9');
    act(() => page!.close());
    await until('r9 to close', () => page!.opened === '');
    expect(search(h2)).toEqual({ connection: 'p1' });
    expect(h2.length).toBe(1);
  });

  it('a change of the address from elsewhere (Back, a link) replaces what the page shows', async () => {
    const { router, history } = devicesRouter('/devices?q=a');
    render(<RouterProvider router={router as never} />);
    await screen.findByTestId('opened');
    await act(() => router.navigate({ to: '/devices', search: { ...devicesDefaults, q: 'b', sort: 'siteId', order: 'desc' } }));
    await until('the page to show the new address', () => page!.view.q === 'b');
    expect(page!.view).toMatchObject({ q: 'b', sort: 'siteId', order: 'desc' });
    act(() => history.back());
    await until('Back to show the first search', () => page!.view.q === 'a');
    expect(page!.view.sort).toBe('deviceName');
  });
});
