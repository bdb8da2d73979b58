// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeBridge, makeProfile } from './support/fake-bridge';
import { ORG_SPECS, makeDevices, makeOrganizations } from './support/fake-inventory-data';
import { renderApp } from './support/render';

const devices = makeDevices(140);

async function openOrgs(setup: (b: FakeBridge) => void = () => {}) {
  const b = new FakeBridge({
    profiles: [makeProfile({ id: 'ops', name: 'Ops node' })],
    // Signed out on purpose: the stored tree shows offline.
    inventory: { devices: { ops: devices }, organizations: { ops: makeOrganizations(ORG_SPECS, devices) } },
  });
  setup(b);
  const r = renderApp(b);
  await r.user.click(screen.getByRole('button', { name: /^Organizations/ }));
  const tree = await screen.findByRole('tree', { name: 'Organization hierarchy' });
  return { ...r, tree };
}

const node = (name: string) => screen.getByTestId(`org-node-${name}`);
const shown = (tree: HTMLElement) => within(tree).getAllByRole('treeitem').map((t) => t.getAttribute('data-org'));

describe('Organizations', () => {
  it('shows the hierarchy with the roots open, the plan in force and where an inherited plan comes from', async () => {
    const { user, tree } = await openOrgs();
    expect(shown(tree)).toEqual(['Northwind Provider', 'Acme', 'Globex', 'Initech', 'Umbrella', 'Standalone Co']);
    expect(node('Northwind Provider')).toHaveAttribute('aria-expanded', 'true');
    expect(node('Acme')).toHaveAttribute('aria-expanded', 'false');
    expect(node('Standalone Co')).not.toHaveAttribute('aria-expanded');
    expect(node('Acme')).toHaveAttribute('aria-level', '2');
    expect(within(node('Initech')).getAllByTestId('org-plan')[0]).toHaveTextContent('Provider-Enterprise · inherited from Northwind Provider');
    expect(within(node('Globex')).getAllByTestId('org-plan')[0]).toHaveTextContent(/^Silver$/);
    expect(within(node('Standalone Co')).getByTestId('org-plan')).toHaveTextContent('no plan');

    await user.click(within(node('Acme')).getByText('Acme'));
    expect(node('Acme')).toHaveAttribute('aria-expanded', 'true');
    await user.click(within(node('Acme Retail')).getByText('Acme Retail'));
    expect(within(node('Acme Retail North')).getByTestId('org-plan')).toHaveTextContent('Gold · inherited from Acme');
    expect(within(node('Acme Retail South')).getByTestId('org-plan')).toHaveTextContent(/^Silver$/);
    await user.click(within(node('Acme')).getAllByText('Acme')[0]!);
    expect(node('Acme')).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByTestId('org-node-Acme Retail')).toBeNull();
  });

  it('follows the ARIA tree keys: Up/Down, Right opens then enters, Left leaves then closes, Home/End', async () => {
    const { user, tree } = await openOrgs();
    expect(node('Northwind Provider')).toHaveAttribute('tabindex', '0');
    expect(node('Acme')).toHaveAttribute('tabindex', '-1');
    node('Northwind Provider').focus();
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(node('Acme')).toHaveFocus());
    await user.keyboard('{ArrowRight}');
    expect(node('Acme')).toHaveAttribute('aria-expanded', 'true');
    expect(node('Acme')).toHaveFocus();
    await user.keyboard('{ArrowRight}');
    await waitFor(() => expect(node('Acme Logistics')).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    await waitFor(() => expect(node('Acme Retail')).toHaveFocus());
    await user.keyboard('{ArrowLeft}');
    await waitFor(() => expect(node('Acme')).toHaveFocus());
    await user.keyboard('{ArrowLeft}');
    expect(node('Acme')).toHaveAttribute('aria-expanded', 'false');
    await user.keyboard('{End}');
    await waitFor(() => expect(node('Standalone Co')).toHaveFocus());
    await user.keyboard('{Home}');
    await waitFor(() => expect(node('Northwind Provider')).toHaveFocus());
    await user.keyboard('{Enter}');
    expect(shown(tree)).toEqual(['Northwind Provider', 'Standalone Co']);
  });

  it('searches, opening the way to the matches, and lists the same organizations as a table', async () => {
    const { user, tree } = await openOrgs();
    await user.type(screen.getByTestId('orgs-search'), 'south');
    await waitFor(() => expect(shown(tree)).toEqual(['Northwind Provider', 'Acme', 'Acme Retail', 'Acme Retail South']));
    await user.clear(screen.getByTestId('orgs-search'));
    await waitFor(() => expect(shown(tree)).toHaveLength(6));

    await user.click(screen.getByRole('button', { name: 'List' }));
    const list = screen.getByTestId('org-list');
    const north = within(list).getByTestId('org-row-Acme Retail North');
    const cells = within(north).getAllByRole('cell').map((c) => c.textContent);
    const count = devices.filter((d) => d.orgName === 'Acme Retail North').length;
    expect(cells).toEqual(['Acme Retail North', 'Acme Retail', 'none (inherits)', 'Gold · inherited from Acme', '0', String(count)]);
    expect(within(within(list).getByTestId('org-row-Acme')).getAllByRole('cell')[4]).toHaveTextContent('2');
    await user.type(screen.getByTestId('orgs-search'), 'gold');
    await waitFor(() => expect(within(list).getAllByRole('row')).toHaveLength(1 + 7));
  });

  it('does not count devices that were never fetched', async () => {
    const { user, tree } = await openOrgs((b) => b.inventory.fetchedAt.set('ops', { devices: null, organizations: new Date().toISOString() }));
    expect(within(tree).getByTestId('org-node-Acme')).toHaveTextContent('devices not fetched');
    expect(within(tree).getByTestId('org-node-Acme')).not.toHaveTextContent(/\d+ devices?\b/);
    await user.click(screen.getByRole('button', { name: 'List' }));
    const cells = within(screen.getByTestId('org-row-Acme Retail North')).getAllByRole('cell');
    expect(cells[5]).toHaveTextContent(/^—$/);
  });
});
