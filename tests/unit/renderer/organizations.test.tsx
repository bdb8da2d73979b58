// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { OrganizationView } from '../../../shared/model/inventory';
import { stubScrollerSize } from './support/layout';
import { MainBridge } from './support/main-bridge';
import { renderApp } from './support/render';

// The list view is virtualized: give its scroller a size, as a browser would.
let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600)));
afterEach(() => restore());

/**
 * A connection "Ops node" to a simulator seeded with its default organization tree (one provider,
 * three tenants, regions under them) and 140 devices, fetched (`what`), then signed out on
 * purpose: the stored tree shows offline.
 */
async function openOrgs(what: 'all' | 'organizations' = 'all') {
  const main = await MainBridge.start();
  const node = await main.node({ seedDevices: 140, seedOrganizations: 14 });
  const ops = await main.addNodeProfile(node, { name: 'Ops node' });
  await main.call('inventory.refresh', { profileId: ops.id, what });
  await main.call('session.signOut', { profileId: ops.id });
  const orgs = (await main.call('inventory.organizations', { profileId: ops.id })).items;
  const r = renderApp(main);
  await r.user.click(screen.getByRole('link', { name: /^Organizations/ }));
  const tree = await screen.findByRole('tree', { name: 'Organization hierarchy' });
  return { ...r, tree, orgs, ...shape(orgs) };
}

/** The tree as main stored it: the root, its children and grandchildren in name order. */
function shape(orgs: OrganizationView[]) {
  const byName = (a: OrganizationView, b: OrganizationView) => a.name.localeCompare(b.name);
  const childrenOf = (name: string) => orgs.filter((o) => o.parent === name).sort(byName);
  const root = orgs.find((o) => o.depth === 0)!;
  const tenants = childrenOf(root.name);
  const withGrandchildren = tenants.find((t) => childrenOf(t.name).some((c) => c.children > 0))!;
  return { root, tenants, childrenOf, withGrandchildren };
}

const node = (name: string) => screen.getByTestId(`org-node-${name}`);
const shown = (tree: HTMLElement) => within(tree).getAllByRole('treeitem').map((t) => t.getAttribute('data-org'));
const planText = (o: OrganizationView) => (o.inheritedFrom ? `${o.effectivePlan} · inherited from ${o.inheritedFrom}` : o.effectivePlan ?? 'no plan');

describe('Organizations', () => {
  it('shows the hierarchy with the roots open, the plan in force and where an inherited plan comes from', async () => {
    const { user, tree, orgs, root, tenants, childrenOf, withGrandchildren: t } = await openOrgs();
    expect(shown(tree)).toEqual([root.name, ...tenants.map((x) => x.name)]);
    expect(node(root.name)).toHaveAttribute('aria-expanded', 'true');
    expect(node(t.name)).toHaveAttribute('aria-expanded', 'false');
    expect(node(t.name)).toHaveAttribute('aria-level', '2');
    for (const x of tenants) expect(within(node(x.name)).getAllByTestId('org-plan')[0]).toHaveTextContent(new RegExp(`^${planText(x)}$`));
    expect(tenants.some((x) => x.inheritedFrom) && tenants.some((x) => !x.inheritedFrom)).toBe(true);

    await user.click(within(node(t.name)).getByText(t.name));
    expect(node(t.name)).toHaveAttribute('aria-expanded', 'true');
    const mid = childrenOf(t.name).find((c) => c.children > 0)!;
    const leaf = childrenOf(t.name).find((c) => c.children === 0)!;
    expect(node(leaf.name)).not.toHaveAttribute('aria-expanded');
    await user.click(within(node(mid.name)).getByText(mid.name));
    for (const deep of childrenOf(mid.name)) expect(within(node(deep.name)).getByTestId('org-plan')).toHaveTextContent(planText(deep));
    await user.click(within(node(t.name)).getAllByText(t.name)[0]!);
    expect(node(t.name)).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId(`org-node-${mid.name}`)).toBeNull();
    expect(orgs).toHaveLength(14);
  });

  it('follows the ARIA tree keys: Up/Down, Right opens then enters, Left leaves then closes, Home/End', async () => {
    const { user, tree, root, tenants, childrenOf } = await openOrgs();
    const first = tenants[0]!;
    const [c1, c2] = childrenOf(first.name);
    expect(node(root.name)).toHaveAttribute('tabindex', '0');
    expect(node(first.name)).toHaveAttribute('tabindex', '-1');
    node(root.name).focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(node(first.name)).toHaveFocus());
    await user.keyboard('{ArrowRight}');
    expect(node(first.name)).toHaveAttribute('aria-expanded', 'true');
    expect(node(first.name)).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(node(c1!.name)).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(node(c2!.name)).toHaveFocus());
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(node(first.name)).toHaveFocus());
    await user.keyboard('{ArrowLeft}');
    expect(node(first.name)).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{End}');
    await waitFor(() => expect(node(tenants.at(-1)!.name)).toHaveFocus());
    await user.keyboard('{Home}');
    await waitFor(() => expect(node(root.name)).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(shown(tree)).toEqual([root.name]);
  });

  it('searches, opening the way to the matches, and lists the same organizations as a table', async () => {
    const { user, tree, orgs, root, tenants, childrenOf, withGrandchildren: t } = await openOrgs();
    const mid = childrenOf(t.name).find((c) => c.children > 0)!;
    const deep = childrenOf(mid.name)[0]!;
    await user.type(screen.getByTestId('orgs-search'), deep.name.toLowerCase());
    await waitFor(() => expect(shown(tree)).toEqual([root.name, t.name, mid.name, deep.name]));
    await user.clear(screen.getByTestId('orgs-search'));
    await waitFor(() => expect(shown(tree)).toHaveLength(1 + tenants.length));

    await user.click(screen.getByRole('button', { name: 'List' }));
    const list = screen.getByTestId('org-list');
    const cells = within(within(list).getByTestId(`org-row-${deep.name}`)).getAllByRole('cell').map((c) => c.textContent);
    expect(cells[0]).toBe(deep.name);
    expect(cells[1]).toBe(mid.name);
    expect(cells[3]).toBe(planText(deep));
    expect(cells.slice(4)).toEqual([String(deep.children), String(deep.devices)]);
    expect(within(within(list).getByTestId(`org-row-${t.name}`)).getAllByRole('cell')[4]).toHaveTextContent(String(t.children));
    const plan = orgs.find((o) => o.effectivePlan && !o.effectivePlan.startsWith('Default'))!.effectivePlan!;
    await user.type(screen.getByTestId('orgs-search'), plan.toLowerCase());
    const withPlan = orgs.filter((o) => o.effectivePlan === plan);
    await waitFor(() => expect(within(list).getAllByRole('row')).toHaveLength(1 + withPlan.length));
  });

  it('does not count devices that were never fetched', async () => {
    const { user, tree, tenants } = await openOrgs('organizations');
    const t = tenants[0]!;
    expect(within(tree).getByTestId(`org-node-${t.name}`)).toHaveTextContent('devices not fetched');
    expect(within(tree).getByTestId(`org-node-${t.name}`)).not.toHaveTextContent(/\d+ devices?\b/);
    await user.click(screen.getByRole('button', { name: 'List' }));
    const cells = within(screen.getByTestId(`org-row-${t.name}`)).getAllByRole('cell');
    expect(cells[5]).toHaveTextContent(/^—$/);
  });
});
