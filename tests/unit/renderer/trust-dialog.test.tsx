// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { MainBridge, type NodeSim } from './support/main-bridge';
import { renderApp } from './support/render';
import { rowAction } from './support/row-menu';

/** Main with a connection "Lab" to a node whose certificate nobody has trusted yet. */
async function untrustedLab(): Promise<{ main: MainBridge; node: NodeSim; id: string }> {
  const main = await MainBridge.start();
  const node = await main.node();
  const lab = await main.addNodeProfile(node, { name: 'Lab', trust: false });
  return { main, node, id: lab.id };
}

describe('trust certificate dialog', () => {
  it('inspects the certificate, shows its fingerprint for comparison and pins exactly that fingerprint', async () => {
    const { main, node, id } = await untrustedLab();
    const { user } = renderApp(main);
    await rowAction(user, await screen.findByTestId('profile-row-Lab'), 'Trust certificate');

    const dialog = await screen.findByRole('dialog', { name: 'Trust certificate' });
    const fp = await within(dialog).findByTestId('cert-fingerprint');
    expect(fp.textContent).toBe(node.fingerprint256);
    expect(fp).toHaveAttribute('data-fingerprint', node.fingerprint256);
    expect(within(dialog).getByTestId('cert-host')).toHaveTextContent(`127.0.0.1:${node.basicPort}`);
    const presented = await main.call('tls.inspect', { profileId: id });
    expect(within(dialog).getByText(presented.subject, { selector: 'dd:nth-of-type(2)' })).toBeVisible();
    expect(within(dialog).getByText('Compare this fingerprint with the one shown on the node (System > Certificates) before trusting it.')).toBeVisible();
    expect(within(dialog).getByText(presented.selfSigned ? 'Yes' : 'No')).toBeVisible();
    expect(main.callsTo('tls.inspect')).toEqual([{ profileId: id }]);

    await user.click(within(dialog).getByRole('button', { name: 'Trust this certificate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(main.callsTo('tls.trust')).toEqual([{ profileId: id, fingerprint256: node.fingerprint256 }]);
    expect(await within(screen.getByTestId('profile-row-Lab')).findByText(new RegExp(`^Pinned ${node.fingerprint256.slice(0, 11)}`))).toBeVisible();
    const [stored] = await main.call('profiles.list');
    expect(stored?.tls).toMatchObject({ mode: 'pinned', fingerprint256: node.fingerprint256 });
  });

  it('opens by itself when a call fails with tls.untrusted', async () => {
    const { main, node } = await untrustedLab();
    const { user } = renderApp(main);
    await user.click(within(await screen.findByTestId('profile-row-Lab')).getByRole('button', { name: 'Sign in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Trust certificate' });
    expect((await within(dialog).findByTestId('cert-fingerprint')).textContent).toBe(node.fingerprint256);
    await user.click(within(dialog).getByRole('button', { name: 'Trust this certificate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // now signing in works
    await user.click(within(screen.getByTestId('profile-row-Lab')).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(within(screen.getByTestId('profile-row-Lab')).getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in'));
  });

  it('cancels without trusting anything', async () => {
    const { main } = await untrustedLab();
    const { user } = renderApp(main);
    await rowAction(user, await screen.findByTestId('profile-row-Lab'), 'Trust certificate');
    const dialog = await screen.findByRole('dialog', { name: 'Trust certificate' });
    await within(dialog).findByTestId('cert-fingerprint');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(main.callsTo('tls.trust')).toHaveLength(0);
    const [stored] = await main.call('profiles.list');
    expect(stored?.tls).toEqual({ mode: 'pinned' });
  });

  it('shows a red warning on tls.pin_mismatch and allows re-trust only after the checkbox', async () => {
    const { main, node, id } = await untrustedLab();
    const first = node.fingerprint256;
    const { user } = renderApp(main);
    await rowAction(user, await screen.findByTestId('profile-row-Lab'), 'Trust certificate');
    const trust = await screen.findByRole('dialog', { name: 'Trust certificate' });
    await within(trust).findByTestId('cert-fingerprint');
    // The node gets a new certificate between inspect and trust.
    await main.sim(node).call('rotateCertificate');
    const second = await main.sim(node).get<string>('fingerprint256');
    expect(second).not.toBe(first);
    await user.click(within(trust).getByRole('button', { name: 'Trust this certificate' }));

    const warning = await screen.findByRole('alertdialog', { name: /Certificate does not match the pin/ });
    expect(warning).toHaveClass('dialog-danger');
    expect(within(warning).getByText(/could be an attack or a replaced certificate/)).toBeVisible();
    expect(within(warning).getByTestId('pin-expected').textContent).toBe(first);
    expect(within(warning).getByTestId('pin-actual').textContent).toBe(second);
    const reTrust = within(warning).getByRole('button', { name: 'Inspect and re-trust' });
    expect(reTrust).toBeDisabled();
    await user.click(within(warning).getByRole('checkbox'));
    expect(reTrust).toBeEnabled();
    await user.click(reTrust);

    const again = await screen.findByRole('dialog', { name: 'Trust certificate' });
    expect((await within(again).findByTestId('cert-fingerprint')).textContent).toBe(second);
    await user.click(within(again).getByRole('button', { name: 'Trust this certificate' }));
    await waitFor(() => expect(main.callsTo('tls.trust')).toHaveLength(2));
    expect(main.callsTo('tls.trust')[1]).toEqual({ profileId: id, fingerprint256: second });
    // callsTo records the request as it is sent; the pin is stored by the time main answers it.
    await waitFor(() => expect(main.answersTo('tls.trust')).toHaveLength(2));
    const [stored] = await main.call('profiles.list');
    expect(stored?.tls).toMatchObject({ mode: 'pinned', fingerprint256: second });
  });

  it('closes with Escape', async () => {
    const { main } = await untrustedLab();
    const { user } = renderApp(main);
    await rowAction(user, await screen.findByTestId('profile-row-Lab'), 'Trust certificate');
    await screen.findByRole('dialog', { name: 'Trust certificate' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
