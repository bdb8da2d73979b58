// @vitest-environment jsdom
/**
 * Issue 7.1 in the forms: before saving, an edit that moves a connection or connector to another
 * endpoint or trust says that the stored secret will not follow, and asks for it again; a custom
 * CA is a file the window reads (its PEM is sent, never a path).
 */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { openConnectors } from './support/connector-steps';
import { MainBridge } from './support/main-bridge';
import { rowAction } from './support/row-menu';
import { renderApp } from './support/render';

/** Main with one signed-out connection "Ops node" (password stored) to a simulator. */
async function opsNode() {
  const main = await MainBridge.start();
  const node = await main.node();
  const ops = await main.addNodeProfile(node, { name: 'Ops node', signIn: false });
  return { main, node, ops };
}

describe('connection form: secrets bound to the endpoint', () => {
  it('warns before saving that a new port drops the stored password, and stops warning when put back', async () => {
    const { main, node } = await opsNode();
    const { user } = renderApp(main);
    await rowAction(user, await screen.findByTestId('profile-row-Ops node'), 'Edit');
    const form = await screen.findByTestId('profile-form');
    expect(within(form).queryByTestId('secrets-dropped-notice')).toBeNull();
    expect(within(form).getByLabelText('Password')).toHaveAttribute('placeholder', '•••• stored');
    const port = within(form).getByLabelText('Basic port');
    await user.clear(port);
    await user.type(port, '8443');
    expect(await within(form).findByTestId('secrets-dropped-notice')).toHaveTextContent('Saving removes the stored password.');
    expect(within(form).getByLabelText('Password')).toHaveAttribute('placeholder', '');
    await user.clear(port);
    await user.type(port, String(node.basicPort));
    await waitFor(() => expect(within(form).queryByTestId('secrets-dropped-notice')).toBeNull());
  });

  it('a custom CA is picked as a file; its PEM text and name are sent, no path', async () => {
    const { main, node, ops } = await opsNode();
    const PEM = node.certificatePem;
    const { user } = renderApp(main);
    await rowAction(user, await screen.findByTestId('profile-row-Ops node'), 'Edit');
    const form = await screen.findByTestId('profile-form');
    await user.click(within(form).getByLabelText(/Custom CA file/));
    expect(await within(form).findByTestId('secrets-dropped-notice')).toBeVisible();
    await user.upload(within(form).getByLabelText('CA certificate file (PEM)'), new File([PEM], 'corp-ca.pem', { type: 'application/x-pem-file' }));
    expect(await within(form).findByText(/corp-ca\.pem/)).toBeVisible();
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(main.callsTo('profiles.save')).toHaveLength(1));
    const [req] = main.callsTo('profiles.save') as Array<{ tls: Record<string, unknown> }>;
    expect(req?.tls).toEqual({ mode: 'custom-ca', caName: 'corp-ca.pem', caPem: PEM });
    await waitFor(() => expect(main.answersTo('profiles.save')).toHaveLength(1));
    // Main kept the CA by its name and dropped the password (the trust changed).
    const saved = (await main.call('profiles.list')).find((p) => p.id === ops.id);
    expect(saved).toMatchObject({ tls: { mode: 'custom-ca', caName: 'corp-ca.pem' }, hasPassword: false });
  });

  it('refuses a CA file over 1 MiB in the window', async () => {
    const { user } = renderApp(await MainBridge.start());
    await user.click(await screen.findByRole('button', { name: 'Add a management node' }));
    const form = screen.getByTestId('profile-form');
    await user.click(within(form).getByLabelText(/Custom CA file/));
    await user.upload(within(form).getByLabelText('CA certificate file (PEM)'), new File(['x'.repeat(1024 * 1024 + 1)], 'huge.pem'));
    expect(await within(form).findByText(/larger than 1 MiB/)).toBeVisible();
  });
});

describe('connector form: secret bound to the tenant and address', () => {
  it('asks for the secret again before saving when the API address changes', async () => {
    // No scheduled poll: the connector's vendor is not reachable from a test.
    const main = await MainBridge.start({ app: { edr: { firstPullDelayMs: 3_600_000 } } });
    await main.call('connectors.save', { name: 'Contoso Defender', vendor: 'defender', tenantId: 'contoso.onmicrosoft.com', clientId: 'fe9643fa-ccd2-4235-881c-49a705ef7e01', clientSecret: 'first-secret', pollIntervalMinutes: 60 });
    const { user } = await openConnectors(main);
    await rowAction(user, await screen.findByTestId('connector-row-Contoso Defender'), 'Edit');
    const form = await screen.findByTestId('connector-form');
    expect(within(form).getByLabelText('Client secret')).toHaveAttribute('placeholder', '•••• stored');
    await user.click(within(form).getByRole('button', { name: 'Advanced' }));
    await user.type(within(form).getByLabelText('API URL'), 'https://api.elsewhere.example');
    expect(await within(form).findByText(/only sent where it was entered for/)).toBeVisible();
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('The tenant, region or address changed: enter the client secret again.')).toBeVisible();
    expect(main.callsTo('connectors.save')).toHaveLength(0);
    await user.type(within(form).getByLabelText('Client secret'), 'new-secret-value');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(main.answersTo('connectors.save')).toHaveLength(1));
    expect(main.answersTo('connectors.save')[0]).toMatchObject({ ok: true, value: { apiUrl: 'https://api.elsewhere.example', hasClientSecret: true } });
  });
});
