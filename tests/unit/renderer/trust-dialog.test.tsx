// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { FakeBridge, FP_A, FP_B, makeProfile } from './support/fake-bridge';
import { renderApp } from './support/render';

const pinnedLab = () => makeProfile({ id: 'lab', name: 'Lab', host: 'lab.example.net', basicPort: 8443, tls: { mode: 'pinned' } });

describe('trust certificate dialog', () => {
  it('inspects the certificate, shows its fingerprint for comparison and pins exactly that fingerprint', async () => {
    const bridge = new FakeBridge({ profiles: [pinnedLab()] });
    const { user } = renderApp(bridge);
    await user.click(within(await screen.findByTestId('profile-row-Lab')).getByRole('button', { name: 'Trust certificate' }));

    const dialog = await screen.findByRole('dialog', { name: 'Trust certificate' });
    const fp = await within(dialog).findByTestId('cert-fingerprint');
    expect(fp.textContent).toBe(FP_A);
    expect(fp).toHaveAttribute('data-fingerprint', FP_A);
    expect(within(dialog).getByTestId('cert-host')).toHaveTextContent('lab.example.net:8443');
    expect(within(dialog).getByText('CN=mgmt.example.net, O=Example Networks', { selector: 'dd:nth-of-type(2)' })).toBeVisible();
    expect(within(dialog).getByText('Compare this fingerprint with the one shown on the node (System > Certificates) before trusting it.')).toBeVisible();
    expect(within(dialog).getByText('Yes')).toBeVisible(); // self-signed
    expect(bridge.callsTo('tls.inspect')).toEqual([{ profileId: 'lab' }]);

    await user.click(within(dialog).getByRole('button', { name: 'Trust this certificate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(bridge.callsTo('tls.trust')).toEqual([{ profileId: 'lab', fingerprint256: FP_A }]);
    expect(await within(screen.getByTestId('profile-row-Lab')).findByText(/^Pinned AB:CD:EF:01/)).toBeVisible();
  });

  it('opens by itself when a call fails with tls.untrusted', async () => {
    const bridge = new FakeBridge({ profiles: [pinnedLab()] });
    const { user } = renderApp(bridge);
    await user.click(within(await screen.findByTestId('profile-row-Lab')).getByRole('button', { name: 'Sign in' }));
    const dialog = await screen.findByRole('dialog', { name: 'Trust certificate' });
    expect((await within(dialog).findByTestId('cert-fingerprint')).textContent).toBe(FP_A);
    await user.click(within(dialog).getByRole('button', { name: 'Trust this certificate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    // now signing in works
    await user.click(within(screen.getByTestId('profile-row-Lab')).getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(within(screen.getByTestId('profile-row-Lab')).getByTestId('session-badge')).toHaveAttribute('data-state', 'signed-in'));
  });

  it('cancels without trusting anything', async () => {
    const bridge = new FakeBridge({ profiles: [pinnedLab()] });
    const { user } = renderApp(bridge);
    await user.click(within(await screen.findByTestId('profile-row-Lab')).getByRole('button', { name: 'Trust certificate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Trust certificate' });
    await within(dialog).findByTestId('cert-fingerprint');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(bridge.callsTo('tls.trust')).toHaveLength(0);
  });

  it('shows a red warning on tls.pin_mismatch and allows re-trust only after the checkbox', async () => {
    const bridge = new FakeBridge({ profiles: [pinnedLab()] });
    const { user } = renderApp(bridge);
    await user.click(within(await screen.findByTestId('profile-row-Lab')).getByRole('button', { name: 'Trust certificate' }));
    const trust = await screen.findByRole('dialog', { name: 'Trust certificate' });
    await within(trust).findByTestId('cert-fingerprint');
    // The node swaps its certificate between inspect and trust.
    bridge.state.presented = { ...bridge.state.presented, fingerprint256: FP_B };
    await user.click(within(trust).getByRole('button', { name: 'Trust this certificate' }));

    const warning = await screen.findByRole('alertdialog', { name: /Certificate does not match the pin/ });
    expect(warning).toHaveClass('dialog-danger');
    expect(within(warning).getByText(/could be an attack or a replaced certificate/)).toBeVisible();
    expect(within(warning).getByTestId('pin-expected').textContent).toBe(FP_A);
    expect(within(warning).getByTestId('pin-actual').textContent).toBe(FP_B);
    const reTrust = within(warning).getByRole('button', { name: 'Inspect and re-trust' });
    expect(reTrust).toBeDisabled();
    await user.click(within(warning).getByRole('checkbox'));
    expect(reTrust).toBeEnabled();
    await user.click(reTrust);

    const again = await screen.findByRole('dialog', { name: 'Trust certificate' });
    expect((await within(again).findByTestId('cert-fingerprint')).textContent).toBe(FP_B);
    await user.click(within(again).getByRole('button', { name: 'Trust this certificate' }));
    await waitFor(() => expect(bridge.callsTo('tls.trust')).toHaveLength(2));
    expect(bridge.callsTo('tls.trust')[1]).toEqual({ profileId: 'lab', fingerprint256: FP_B });
  });

  it('closes with Escape', async () => {
    const bridge = new FakeBridge({ profiles: [pinnedLab()] });
    const { user } = renderApp(bridge);
    await user.click(within(await screen.findByTestId('profile-row-Lab')).getByRole('button', { name: 'Trust certificate' }));
    await screen.findByRole('dialog', { name: 'Trust certificate' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
