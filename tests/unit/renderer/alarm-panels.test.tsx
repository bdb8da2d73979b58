// @vitest-environment jsdom
/**
 * Around the alarm stream (issue 12), against a real main polling a node simulator: the counters
 * per organization and severity and the changes per minute move live and lead into the stream;
 * the source badge turns to a warning when the connection stops collecting; the browser's
 * notification for a new critical alarm (browser mode) opens it; the alarm settings; the command
 * palette finds an alarm and `?` lists the stream's keys.
 */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ACTIVE_SEVERITIES } from '../../../shared/model/alarms';
import { stubScrollerSize } from './support/layout';
import { alarmMain, list, params, shownIds, step } from './support/alarm-steps';
import { address, renderApp } from './support/render';

let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600)));
afterEach(() => restore());

const at = (profileId: string, search = '') => `/alarms?connection=${profileId}${search ? `&${search}` : ''}`;

describe('around the stream', () => {
  it('counts open alarms per organization and severity and changes per minute, live, and a count opens those alarms', async () => {
    const am = await alarmMain({ changes: 30 });
    const { user } = renderApp(am.main, { at: at(am.profileId) });
    const counts = async () => {
      const s = await am.main.call('alarms.summary', { profileId: am.profileId });
      const r = await am.main.call('alarms.rate', { profileId: am.profileId, minutes: 60 });
      return { s, hour: r.buckets.reduce((n, b) => n + b.count, 0) };
    };
    const first = await counts();
    const all = await screen.findByTestId('alarm-counts-all');
    await waitFor(() => expect(within(all).getAllByRole('cell').at(-1)).toHaveTextContent(String(first.s.totals.total)));
    for (const sev of ACTIVE_SEVERITIES) expect(within(all).getAllByRole('cell')[ACTIVE_SEVERITIES.indexOf(sev)]).toHaveTextContent(String(first.s.totals[sev]));
    for (const o of first.s.organizations) expect(within(screen.getByTestId(`alarm-counts-${o.org}`)).getAllByRole('cell').at(-1)).toHaveTextContent(String(o.total));
    await waitFor(() => expect(screen.getByTestId('alarm-rate-total')).toHaveTextContent(`${first.hour} in the last hour`));

    await step(am, 12);
    const second = await counts();
    expect(second.hour).toBe(first.hour + 12);
    await waitFor(() => expect(within(screen.getByTestId('alarm-counts-all')).getAllByRole('cell').at(-1)).toHaveTextContent(String(second.s.totals.total)));
    await waitFor(() => expect(screen.getByTestId('alarm-rate-total')).toHaveTextContent(`${second.hour} in the last hour`));

    // A count is a way into the stream: that organization's alarms of that severity.
    const o = second.s.organizations.find((x) => ACTIVE_SEVERITIES.some((s) => x[s] > 0))!;
    const sev = ACTIVE_SEVERITIES.find((s) => o[s] > 0)!;
    await user.click(screen.getByTestId(`alarm-count-${o.org}-${sev}`));
    await waitFor(() => expect(Object.fromEntries(params())).toMatchObject({ org: o.org, severity: sev }));
    const expected = await list(am, { org: o.org, severity: [sev] });
    expect(expected.total).toBe(o[sev]);
    await waitFor(() => expect(shownIds()).toEqual(expected.rows.map((r) => r.id)));
  });

  it('says where the alarms come from, and warns when the connection stops collecting (the stored alarms stay)', async () => {
    const am = await alarmMain({ changes: 10 });
    const { user } = renderApp(am.main, { at: at(am.profileId) });
    const badge = await screen.findByTestId('alarm-source');
    await waitFor(() => expect(badge).toHaveAttribute('data-health', 'live'));
    await user.click(badge);
    const details = screen.getByTestId('alarm-source-details');
    expect(details).toHaveTextContent('REST polling (no broker configured)');
    const status = await am.main.call('alarms.status', { profileId: am.profileId });
    await waitFor(() => expect(details).toHaveTextContent(`${status.stored.alarms} alarms`));

    await am.main.call('session.signOut', { profileId: am.profileId });
    await waitFor(() => expect(badge).toHaveAttribute('data-health', 'down'));
    expect(badge).toHaveTextContent('Not collecting');
    expect(screen.getByTestId('alarm-source-details')).toHaveTextContent('Sign in to Lab node to collect its alarms. The stored alarms stay readable.');
    expect(shownIds().length).toBeGreaterThan(0);
  });

  it('shows a browser notification for a new critical alarm once allowed, and its click opens the alarm', async () => {
    const shown: Array<{ title: string; body: string; onclick: (() => void) | null; close(): void }> = [];
    class FakeNotification {
      static permission: NotificationPermission = 'default';
      static requestPermission = vi.fn(async () => (FakeNotification.permission = 'granted'));
      onclick: (() => void) | null = null;
      close = vi.fn();
      constructor(
        public title: string,
        public options: { body: string },
      ) {
        shown.push({ title, body: options.body, onclick: null, close: this.close });
        const me = shown.at(-1)!;
        Object.defineProperty(this, 'onclick', { set: (f: () => void) => (me.onclick = f), get: () => me.onclick });
      }
    }
    vi.stubGlobal('Notification', FakeNotification);
    try {
      const am = await alarmMain({ changes: 10, mode: 'browser' });
      const { user } = renderApp(am.main, { at: `/settings?connection=${am.profileId}` });
      // Permission is asked on a press, not on load.
      expect(FakeNotification.requestPermission).not.toHaveBeenCalled();
      await user.click(await screen.findByRole('button', { name: 'Allow notifications…' }));
      expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
      expect(screen.getByTestId('alarm-notify-permission')).toHaveTextContent('This browser shows them.');

      const device = (await list(am)).rows[0]!.deviceName;
      await am.sim.call('alarms.model.change', { deviceName: device, object: 'cpu', type: 'high-cpu-utilization', specificProblem: 'cpu-ui-test' }, 'critical', 'CPU at 99 %');
      await waitFor(() => expect(shown).toHaveLength(1));
      expect(shown[0]).toMatchObject({ title: `Critical alarm on ${device}` });
      expect(shown[0]!.body).toContain('CPU at 99 %');
      const id = (await list(am, { text: 'CPU at 99' })).rows[0]!.id;
      shown[0]!.onclick!();
      await screen.findByTestId('alarm-details');
      expect(address()).toContain(`alarm=${id}`);
    } finally {
      vi.unstubAllGlobals();
    }
  });

  it('keeps alarm history for the days chosen and notifies of the severities chosen (Settings)', async () => {
    const am = await alarmMain();
    const { user } = renderApp(am.main, { at: `/settings?connection=${am.profileId}` });
    const days = await screen.findByLabelText('Keep alarm history for (days)');
    await waitFor(() => expect(days).toHaveValue('30'));
    await user.clear(days);
    await user.type(days, '0');
    expect(await screen.findByText('Keep alarm history for at least 1 day.')).toBeVisible();
    await user.clear(days);
    await user.type(days, '14{Enter}');
    await waitFor(async () => expect((await am.main.call('settings.get')).alarmHistoryDays).toBe(14));

    expect(screen.getByTestId('alarm-notify-critical')).toBeChecked();
    expect(screen.getByTestId('alarm-notify-major')).not.toBeChecked();
    await user.click(screen.getByTestId('alarm-notify-major'));
    await waitFor(async () => expect((await am.main.call('settings.get')).alarmNotify).toEqual(['critical', 'major']));
    await user.click(screen.getByTestId('alarm-notify-critical'));
    await waitFor(async () => expect((await am.main.call('settings.get')).alarmNotify).toEqual(['major']));
    await waitFor(() => expect(screen.getByTestId('alarm-notify-critical')).not.toBeChecked());
  });

  it('finds an alarm in the command palette and opens it; ? lists the stream’s keys', async () => {
    const am = await alarmMain({ changes: 20 });
    const { user } = renderApp(am.main, { at: `/connections?connection=${am.profileId}` });
    await screen.findByTestId('profile-row-Lab node');
    const target = (await list(am)).rows[0]!;
    await user.keyboard('{Control>}k{/Control}');
    const palette = screen.getByRole('dialog', { name: 'Command palette' });
    await user.keyboard(target.text.slice(0, 40));
    const option = await within(palette).findByRole('option', { name: new RegExp(`${target.type} on ${target.deviceName}`) });
    await user.click(option);
    const details = await screen.findByTestId('alarm-details');
    expect(await within(details).findByTestId('alarm-detail-text')).toHaveTextContent(target.text);
    expect(address()).toContain(`alarm=${target.id}`);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('alarm-details')).toBeNull());

    screen.getByRole('heading', { level: 1 }).focus();
    await user.keyboard('?');
    const keys = within(await screen.findByTestId('shortcuts-dialog')).getByRole('region', { name: 'Alarm stream' });
    for (const what of ['Move to the previous or next alarm', 'Select or deselect the focused alarm', 'Acknowledge the selection (or the focused alarm) with a note', 'Open the focused alarm’s details and history']) expect(keys).toHaveTextContent(what);
  });
});
