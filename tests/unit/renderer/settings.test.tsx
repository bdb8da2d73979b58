// @vitest-environment jsdom
/**
 * The Settings page (issue 10.9 and 10.12) against a real main: the time zone every time of the
 * window follows, the RabbitMQ address whose password never comes back, the environment variable
 * that overrides it, and the data folder.
 */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeFormat } from '../../../renderer/components/format';
import { answering, MainBridge } from './support/main-bridge';
import { renderApp } from './support/render';

// The machine may run on UTC: a zone of its own makes local time and UTC differ.
const savedTz = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'Asia/Kolkata';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const PASSWORD = 'Rabbit-s3cret-Pa55';

async function openSettings(main: MainBridge) {
  const r = renderApp(main);
  await r.user.click(screen.getByRole('link', { name: /Settings/ }));
  await screen.findByTestId('publication-settings');
  return r;
}

describe('time zone', () => {
  it('writes every time in local time or UTC, as chosen, with the exact time on hover of a relative one', async () => {
    const main = await MainBridge.start();
    const node = await main.node({ seedDevices: 3 });
    const ops = await main.addNodeProfile(node, { name: 'Ops node' });
    const { fetchedAt } = await main.call('inventory.refresh', { profileId: ops.id, what: 'devices' });
    const { user } = renderApp(main);

    await user.click(screen.getByRole('link', { name: /^Devices/ }));
    // 24-hour with seconds and the zone: "2026-05-01 16:24:30 UTC+05:30".
    const local = timeFormat('local').dateTime(fetchedAt);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC\+05:30$/);
    await waitFor(() => expect(screen.getByTestId('fetched-at')).toHaveAttribute('title', `Fetched at ${local}`));
    expect(screen.getByTestId('fetched-at')).toHaveAttribute('datetime', fetchedAt);

    await user.click(screen.getByRole('link', { name: /Settings/ }));
    const zone = await screen.findByLabelText('Time zone');
    await waitFor(() => expect(zone).toHaveValue('local'));
    expect(within(zone).getByRole('option', { name: 'Local time (Asia/Calcutta)' })).toBeInTheDocument();
    expect(screen.getByTestId('time-example')).toHaveTextContent(/UTC\+05:30$/);
    await user.selectOptions(zone, 'utc');
    await waitFor(() => expect(main.callsTo('settings.update')).toEqual([{ timeZone: 'utc' }]));
    await waitFor(() => expect(screen.getByTestId('time-example')).toHaveTextContent(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC$/));

    await user.click(screen.getByRole('link', { name: /^Devices/ }));
    const utc = timeFormat('utc').dateTime(fetchedAt);
    expect(utc).not.toBe(local);
    await waitFor(() => expect(screen.getByTestId('fetched-at')).toHaveAttribute('title', `Fetched at ${utc}`));
    // Kept by main, with the theme untouched.
    expect(await main.call('settings.get')).toEqual({ theme: 'system', timeZone: 'utc', riskHistoryDays: 90, alarmHistoryDays: 30, alarmNotify: ['critical'] });
  });
});

describe('RabbitMQ address', () => {
  it('checks the address before saving, naming what to fix', async () => {
    const main = await MainBridge.start({ app: { edr: { env: {} } } });
    const { user } = await openSettings(main);
    const address = screen.getByLabelText('RabbitMQ address');
    await user.type(address, 'http://rabbit.example.com');
    await user.click(screen.getByRole('button', { name: 'Save address' }));
    expect(await screen.findByText('The address starts with http://; RabbitMQ needs amqp:// (or amqps:// for TLS).')).toBeVisible();
    expect(address).toHaveAttribute('aria-invalid', 'true');
    await user.clear(address);
    await user.type(address, 'amqp://rabbit.example.com:5672/');
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await waitFor(() => expect(screen.getByText('Write the user name in the address for this password, e.g. amqp://user@host:5672/.')).toBeVisible());
    // Nothing went to main.
    expect(main.callsTo('publication.update')).toEqual([]);
  });

  it('saves the password to main, shows only that one is stored, and says when a new host drops it', async () => {
    const main = await MainBridge.start({ app: { edr: { env: {} } } });
    const { user } = await openSettings(main);
    expect(screen.getByTestId('publication-status')).toHaveTextContent('RabbitMQ not configured');
    await user.type(screen.getByLabelText('RabbitMQ address'), 'amqp://scores@rabbit.example.com:5672/zta');
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(screen.getByTestId('publication-status')).toHaveTextContent('RabbitMQ configured amqp://scores@rabbit.example.com:5672/zta with a stored password'));
    expect(main.callsTo('publication.update')).toEqual([{ amqpUrl: 'amqp://scores@rabbit.example.com:5672/zta', password: PASSWORD }]);
    // The password box is empty again and says a password is stored; no answer carried it.
    const password = screen.getByLabelText('Password');
    await waitFor(() => expect(password).toHaveValue(''));
    expect(password).toHaveAttribute('placeholder', '•••• stored');
    expect(JSON.stringify(main.answers)).not.toContain(PASSWORD);
    expect(document.body.innerHTML).not.toContain(PASSWORD);

    // Another host: the form says the stored password goes, and main drops it.
    const address = screen.getByLabelText('RabbitMQ address');
    await user.clear(address);
    await user.type(address, 'amqp://scores@other.example.net:5672/zta');
    expect(await screen.findByTestId('publication-password-dropped')).toHaveTextContent('Saving removes the stored password.');
    expect(password).toHaveAttribute('placeholder', '');
    await user.click(screen.getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(screen.getByTestId('publication-status')).toHaveTextContent('RabbitMQ configured amqp://scores@other.example.net:5672/zta'));
    expect(screen.getByTestId('publication-status')).not.toHaveTextContent('stored password');
    expect((await main.call('publication.get')).amqp).toMatchObject({ url: 'amqp://scores@other.example.net:5672/zta', hasPassword: false });
  });

  it('removes the address after asking', async () => {
    const main = await MainBridge.start({ app: { edr: { env: {} } } });
    await main.call('publication.update', { amqpUrl: 'amqp://scores@rabbit.example.com/', password: PASSWORD });
    const { user } = await openSettings(main);
    await waitFor(() => expect(screen.getByLabelText('RabbitMQ address')).toHaveValue('amqp://scores@rabbit.example.com/'));
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    const ask = await screen.findByTestId('confirm-dialog');
    expect(ask).toHaveTextContent('Scores are no longer published to amqp://scores@rabbit.example.com/, and its stored password is deleted.');
    expect(within(ask).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.click(within(ask).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(screen.getByTestId('publication-status')).toHaveTextContent('RabbitMQ not configured'));
    expect(screen.getByLabelText('RabbitMQ address')).toHaveValue('');
    expect((await main.call('publication.get')).amqp).toMatchObject({ url: null, hasPassword: false });
  });

  it('says when NORTHBOUND_AMQP_URL overrides the address, without its password', async () => {
    const main = await MainBridge.start({ app: { edr: { env: { NORTHBOUND_AMQP_URL: `amqp://ops:${PASSWORD}@broker.lab:5672/` } } } });
    await openSettings(main);
    expect(await screen.findByTestId('publication-env-override')).toHaveTextContent('NORTHBOUND_AMQP_URL overrides this setting.');
    expect(screen.getByTestId('publication-status')).toHaveTextContent('RabbitMQ configured from the environment: amqp://ops@broker.lab:5672/');
    expect(document.body.innerHTML).not.toContain(PASSWORD);
  });
});

describe('a settings card whose settings cannot be read', () => {
  it.each([
    ['team.get', 'Team', 'team settings'],
    ['publication.get', 'Publication', 'publication settings'],
  ] as const)('%s failing: the %s card says so under its title, instead of its form', async (channel, title, what) => {
    const main = await MainBridge.start();
    const transport = answering(main, channel, { ok: false, error: { code: 'internal', message: 'settings.json is locked.', hint: '' } });
    const { user } = renderApp(main, { transport });
    await user.click(screen.getByRole('link', { name: /Settings/ }));
    const card = (await screen.findByRole('heading', { name: title, level: 2 })).closest('section')!;
    expect(await within(card).findByText(`The ${what} could not be read: settings.json is locked.`)).toBeVisible();
    expect(within(card).queryByRole('button')).toBeNull();
  });
});

describe('data folder', () => {
  it('shows where main keeps its data, with a copy button; browser mode offers no Open', async () => {
    const main = await MainBridge.start();
    const { user } = await openSettings(main);
    const folder = screen.getByTestId('data-folder');
    expect(await within(folder).findByTestId('data-folder-path')).toHaveTextContent(main.dataDir);
    expect(within(folder).queryByRole('button', { name: 'Open folder' })).toBeNull();
    await user.click(within(folder).getByRole('button', { name: 'Copy' }));
    expect(await navigator.clipboard.readText()).toBe(main.dataDir);
    expect(await screen.findByText('Data folder location copied to the clipboard.')).toBeInTheDocument();
  });
});

describe('updates (issue 23.7)', () => {
  it('browser mode says the desktop app updates itself and offers no update buttons', async () => {
    const main = await MainBridge.start();
    await openSettings(main);
    const updates = screen.getByTestId('updates');
    expect(await within(updates).findByTestId('updates-state')).toHaveAttribute('data-state', 'unavailable');
    expect(within(updates).getByTestId('updates-state')).toHaveTextContent('the desktop app updates itself');
    expect(within(updates).queryByRole('button', { name: /Check for updates/ })).toBeNull();
    await expect(main.call('updates.install', {})).rejects.toThrow('updates.install: request.forbidden Only the desktop app installs updates.');
  });
});

describe('risk history', () => {
  it('keeps 90 days unless told otherwise; a wrong number is refused in the window, a right one saved to main', async () => {
    const main = await MainBridge.start();
    const { user } = await openSettings(main);
    const days = screen.getByLabelText('Keep risk history for (days)');
    await waitFor(() => expect(days).toHaveValue('90'));
    const save = within(screen.getByRole('form', { name: 'Risk history' })).getByRole('button', { name: 'Save' });
    expect(save).toBeDisabled();
    await user.clear(days);
    await user.type(days, '0');
    expect(await screen.findByText('Keep risk history for at least 1 day.')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.clear(days);
    await user.type(days, '2.5');
    expect(await screen.findByText('Keep risk history for a whole number of days.')).toBeInTheDocument();
    await user.clear(days);
    await user.type(days, '30{Enter}');
    await waitFor(() => expect(main.callsTo('settings.update')).toEqual([{ riskHistoryDays: 30 }]));
    await waitFor(() => expect(main.answersTo('settings.update')).toHaveLength(1));
    expect(await main.call('settings.get')).toMatchObject({ riskHistoryDays: 30 });
    expect(main.callsTo('settings.update')).toHaveLength(1);
  });
});
