// @vitest-environment jsdom
/**
 * The Alarms page (issue 12) against a real main polling a node simulator (the test steps the
 * node's alarm generator itself): the stream follows the events with windows of rows, never the
 * whole list; pause holds the rows with "N new" waiting; filters and the opened alarm live in the
 * address; acknowledge with a note and clear round-trip to the node (and a refusal stays in the
 * dialog); the details show the status-change and handling history; the keyboard does it all.
 */
import '@testing-library/jest-dom/vitest';
import { screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALARM_PAGE } from '../../../renderer/api/alarms';
import { stubScrollerSize } from './support/layout';
import { alarmMain, checkbox, freshIds, list, onNode, params, row, shownIds, step } from './support/alarm-steps';
import { address, renderApp } from './support/render';

let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600)));
afterEach(() => restore());

const count = () => screen.getByTestId('alarm-count');
const at = (profileId: string, search = '') => `/alarms?connection=${profileId}${search ? `&${search}` : ''}`;

describe('the alarm stream', () => {
  it('shows the stored alarms newest first and follows the events: changed rows come to the top highlighted, reading only windows of rows', async () => {
    const am = await alarmMain({ changes: 40 });
    renderApp(am.main, { at: at(am.profileId) });
    const open = await list(am);
    await waitFor(() => expect(count()).toHaveTextContent(String(open.total)));
    expect(shownIds()).toEqual(open.rows.map((r) => r.id).slice(0, shownIds().length));
    expect(freshIds()).toEqual([]);
    expect(screen.getByTestId('alarm-source')).toHaveAttribute('data-health', 'live');
    expect(screen.getByTestId('alarm-source')).toHaveTextContent('Live (polling)');

    const events = await step(am, 6);
    const after = await list(am);
    await waitFor(() => expect(shownIds()).toEqual(after.rows.map((r) => r.id).slice(0, shownIds().length)));
    expect(count()).toHaveTextContent(String(after.total));
    // The open alarms the node changed are highlighted (a cleared one left the open list).
    const changedOpen = after.rows.filter((r) => events.some((e) => e.alarm.deviceName === r.deviceName && e.alarm.object === r.object && e.alarm.type === r.type)).map((r) => r.id);
    expect(changedOpen.length).toBeGreaterThan(0);
    await waitFor(() => expect(freshIds().sort()).toEqual(changedOpen.sort()));
    // Every read was a window of at most one page: nothing ever asks for the whole list.
    const reads = am.main.callsTo('alarms.list') as Array<{ limit: number; offset: number }>;
    expect(reads.length).toBeGreaterThan(1);
    expect(reads.every((r) => r.limit <= ALARM_PAGE)).toBe(true);
  });

  it('shows the rows read before at once when the page is left and opened again', async () => {
    const am = await alarmMain({ changes: 30 });
    const { user } = renderApp(am.main, { at: at(am.profileId) });
    const open = await list(am);
    await waitFor(() => expect(count()).toHaveTextContent(String(open.total)));
    await user.click(screen.getByRole('link', { name: 'Devices' }));
    await waitFor(() => expect(screen.queryByTestId('alarm-table')).toBeNull());
    await user.click(screen.getByRole('link', { name: /^Alarms/ }));
    await waitFor(() => expect(count()).toHaveTextContent(String(open.total)));
    expect(shownIds()).toEqual(open.rows.map((r) => r.id).slice(0, shownIds().length));
    expect(shownIds().length).toBeGreaterThan(0);
  });

  it('pauses: the rows hold still while "N new" counts what changed, and resume shows them highlighted', async () => {
    const am = await alarmMain({ changes: 40 });
    const { user } = renderApp(am.main, { at: at(am.profileId, 'state=all') });
    await waitFor(() => expect(shownIds().length).toBeGreaterThan(10));
    await user.click(screen.getByTestId('alarm-pause'));
    expect(screen.getByTestId('alarm-pause')).toHaveAttribute('aria-pressed', 'true');
    const held = shownIds();
    const before = await list(am, { cleared: 'all' });
    await step(am, 5);
    const changedSince = await list(am, { cleared: 'all', afterSeq: before.headSeq });
    expect(changedSince.total).toBeGreaterThan(0);
    expect(await screen.findByTestId('alarm-new')).toHaveTextContent(`${changedSince.total} new`);
    // Held: the same rows in the same order, while the store's order moved on.
    expect(shownIds()).toEqual(held);
    expect((await list(am, { cleared: 'all' })).rows.map((r) => r.id)).not.toEqual(before.rows.map((r) => r.id));

    await user.click(screen.getByTestId('alarm-new'));
    expect(screen.getByTestId('alarm-pause')).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByTestId('alarm-new')).toBeNull();
    const now = await list(am, { cleared: 'all' });
    await waitFor(() => expect(shownIds()).toEqual(now.rows.map((r) => r.id).slice(0, shownIds().length)));
    await waitFor(() => expect(freshIds().sort()).toEqual(changedSince.rows.map((r) => r.id).sort()));
  });

  it('keeps the filters and the opened alarm in the address, and an address restores them (a bad value falls back)', async () => {
    const am = await alarmMain({ changes: 60 });
    const { user, unmount } = renderApp(am.main, { at: at(am.profileId) });
    await waitFor(() => expect(shownIds().length).toBeGreaterThan(0));
    const entries = window.history.length;
    await user.click(screen.getByTestId('alarm-filter-severity-major'));
    await user.click(screen.getByTestId('alarm-filter-severity-critical'));
    await user.selectOptions(screen.getByTestId('alarm-filter-state'), 'all');
    await waitFor(() => expect(Object.fromEntries(params())).toMatchObject({ severity: 'critical,major', state: 'all' }));
    const severe = await list(am, { severity: ['critical', 'major'], cleared: 'all' });
    await waitFor(() => expect(shownIds()).toEqual(severe.rows.map((r) => r.id).slice(0, shownIds().length)));
    expect(count()).toHaveTextContent(String(severe.total));

    // Words query once typing pauses; the organization is one of those with alarms.
    const target = severe.rows[0]!;
    await user.type(screen.getByTestId('alarm-search'), target.object);
    await user.selectOptions(screen.getByTestId('alarm-filter-org'), target.org);
    await waitFor(() => expect(Object.fromEntries(params())).toMatchObject({ q: target.object, org: target.org }));
    const narrowed = await list(am, { severity: ['critical', 'major'], cleared: 'all', text: target.object, org: target.org });
    await waitFor(() => expect(shownIds()).toEqual(narrowed.rows.map((r) => r.id)));
    expect(window.history.length).toBe(entries);

    // Opening an alarm adds an entry; Escape closes it and keeps the filters.
    await user.click(within(row(target.id)).getByText(target.deviceName));
    expect(await screen.findByTestId('alarm-details')).toBeVisible();
    expect(params().get('alarm')).toBe(String(target.id));
    expect(window.history.length).toBe(entries + 1);
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('alarm-details')).toBeNull());
    expect(params().has('alarm')).toBe(false);
    expect(params().get('q')).toBe(target.object);

    // Clear filters: back to the open alarms.
    await user.click(screen.getByRole('button', { name: 'Clear filters' }));
    await waitFor(() => expect(address()).toBe(at(am.profileId)));

    // An address: its filters and the alarm open; a severity and a state this build does not know are no filter.
    unmount();
    const again = renderApp(am.main, { at: at(am.profileId, `severity=major,fatal&state=gone&ack=unacked&alarm=${target.id}`) });
    expect(await screen.findByTestId('alarm-details')).toBeVisible();
    await again.user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByTestId('alarm-details')).toBeNull());
    expect(screen.getByTestId('alarm-filter-severity-major')).toBeChecked();
    expect(screen.getByTestId('alarm-filter-severity-critical')).not.toBeChecked();
    expect(screen.getByTestId('alarm-filter-state')).toHaveValue('open');
    expect(screen.getByTestId('alarm-filter-ack')).toHaveValue('unacked');
    const unackedMajor = await list(am, { severity: ['major'], unacked: true });
    await waitFor(() => expect(count()).toHaveTextContent(String(unackedMajor.total)));
    await waitFor(() => expect(address()).not.toContain('fatal'));
  });

  it('acknowledges a selection with a note on the node (checkbox, shift+click), and the rows and details show who and why', async () => {
    const am = await alarmMain({ changes: 40 });
    const { user } = renderApp(am.main, { at: at(am.profileId) });
    const open = await list(am);
    await waitFor(() => expect(shownIds().length).toBeGreaterThan(4));
    const [a, , , d] = open.rows;
    await user.click(checkbox(a!.id));
    await user.keyboard('{Shift>}');
    await user.click(checkbox(d!.id));
    await user.keyboard('{/Shift}');
    expect(screen.getByTestId('alarm-selectionbar')).toHaveTextContent('4 alarms selected');
    await user.click(within(screen.getByTestId('alarm-selectionbar')).getByRole('button', { name: /Acknowledge/ }));
    const dialog = await screen.findByTestId('alarm-ack-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Acknowledge 4 alarms' })).toBeVisible();
    expect(within(dialog).getByLabelText('Note')).toHaveFocus();
    await user.type(within(dialog).getByLabelText('Note'), 'Fibre cut on the ring, crew on site');
    await user.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));
    await waitFor(() => expect(screen.queryByTestId('alarm-ack-dialog')).toBeNull());
    expect(await screen.findByText('Acknowledged 4 alarms on the node.')).toBeVisible();

    for (const r of open.rows.slice(0, 4)) {
      const node = await onNode(am, r);
      expect(node.handlings.at(-1)).toMatchObject({ state: 'ack', user: am.user, description: 'Fibre cut on the ring, crew on site' });
      await waitFor(() => expect(within(row(r.id)).getByText(`ack · ${am.user}`)).toBeVisible());
    }
    expect(screen.getByTestId('alarm-selectionbar')).not.toHaveTextContent('selected');
    // Not acknowledged: those four are gone from the list.
    await user.selectOptions(screen.getByTestId('alarm-filter-ack'), 'unacked');
    await waitFor(() => expect(shownIds()).not.toContain(a!.id));
    for (const r of open.rows.slice(0, 4)) expect(shownIds()).not.toContain(r.id);
  });

  it('shows an alarm’s record, status changes and handlings, live, and clears it after asking; a refusal of the node stays in the dialog', async () => {
    const am = await alarmMain({ changes: 40 });
    const { user } = renderApp(am.main, { at: at(am.profileId) });
    const target = (await list(am)).rows[0]!;
    await waitFor(() => expect(shownIds()).toContain(target.id));
    await am.main.call('alarms.acknowledge', { profileId: am.profileId, ids: [target.id], note: 'first look', state: 'investigation' });
    await user.click(within(row(target.id)).getByText(target.text));
    const details = await screen.findByTestId('alarm-details');
    const node = await onNode(am, target);
    await waitFor(() => expect(within(details).getAllByTestId('alarm-change')).toHaveLength(node.changes.length));
    expect(within(details).getByTestId('alarm-detail-handling')).toHaveTextContent(`under investigation by ${am.user}`);
    expect(within(details).getByTestId('alarm-detail-handling')).toHaveTextContent('“first look”');
    expect(within(details).getAllByTestId('alarm-handling')[0]).toHaveTextContent('first look');

    // The node moves it on: the open dialog follows.
    await am.sim.call('alarms.model.change', { deviceName: target.deviceName, object: target.object, type: target.type, specificProblem: target.specificProblem }, 'critical', 'Escalated by the node');
    await waitFor(() => expect(within(details).getByTestId('alarm-detail-text')).toHaveTextContent('Escalated by the node'));
    expect(within(details).getAllByTestId('alarm-change')).toHaveLength(node.changes.length + 1);

    // Clear asks first (focus on Cancel); the node refuses: the words stay in the dialog.
    await am.sim.set('faults.failingPaths', ['/mgmt/fault/alarm/clear']);
    await user.click(within(details).getByRole('button', { name: /Clear/ }));
    const confirm = await screen.findByTestId('alarm-clear-dialog');
    expect(within(confirm).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    await user.type(within(confirm).getByLabelText('Note'), 'Replaced the optic');
    await user.click(within(confirm).getByRole('button', { name: 'Clear' }));
    expect(await within(confirm).findByTestId('alarm-action-error')).toHaveTextContent(/not available|unavailable|503/i);
    expect((await onNode(am, target)).changes.at(-1)!.perceivedSeverity).toBe('critical');

    await am.sim.set('faults.failingPaths', []);
    await user.click(within(confirm).getByRole('button', { name: 'Clear' }));
    await waitFor(() => expect(screen.queryByTestId('alarm-clear-dialog')).toBeNull());
    const onNodeNow = await onNode(am, target);
    expect(onNodeNow.changes.at(-1)).toMatchObject({ perceivedSeverity: 'cleared', alarmText: onNodeNow.changes.at(-2)?.alarmText });
    expect(onNodeNow.handlings.at(-1)).toMatchObject({ state: 'closed', description: 'Replaced the optic' });
    // The alarm keeps its own text; the handling says who cleared it and why.
    await waitFor(() => expect(within(details).getByTestId('alarm-detail-handling')).toHaveTextContent('“Replaced the optic”'));
    expect(within(details).getByTestId('alarm-detail-text')).toHaveTextContent(onNodeNow.changes.at(-2)!.alarmText);
    expect(within(details).getByRole('button', { name: /Clear/ })).toBeDisabled();
    // The device is a link to its page (issue 22.10).
    const href = within(details).getByTestId('alarm-detail-device').getAttribute('href')!;
    expect(href.startsWith('/#/devices?')).toBe(true);
    const linked = new URLSearchParams(href.split('?')[1]);
    expect([linked.get('device'), linked.get('connection')]).toEqual([target.deviceName, am.profileId]);
    await user.keyboard('{Escape}');
    // Cleared: no longer among the open alarms.
    await waitFor(() => expect(shownIds()).not.toContain(target.id));
  });

  it('works from the keyboard: j/k and arrows move, Space selects, a acknowledges, Enter opens the details', async () => {
    const am = await alarmMain({ changes: 40 });
    const { user } = renderApp(am.main, { at: at(am.profileId) });
    const open = (await list(am)).rows;
    await waitFor(() => expect(shownIds().length).toBeGreaterThan(4));
    row(open[0]!.id).focus();
    await user.keyboard('j');
    expect(row(open[1]!.id)).toHaveFocus();
    await user.keyboard('{ArrowDown}j');
    expect(row(open[3]!.id)).toHaveFocus();
    await user.keyboard('k');
    expect(row(open[2]!.id)).toHaveFocus();
    await user.keyboard(' ');
    await user.keyboard('{ArrowUp} ');
    expect(checkbox(open[1]!.id)).toBeChecked();
    expect(checkbox(open[2]!.id)).toBeChecked();
    expect(row(open[2]!.id)).toHaveAttribute('aria-selected', 'true');

    // `a`: the selection's acknowledge, on its note.
    await user.keyboard('a');
    const dialog = await screen.findByTestId('alarm-ack-dialog');
    expect(within(dialog).getByRole('heading', { name: 'Acknowledge 2 alarms' })).toBeVisible();
    expect(within(dialog).getByLabelText('Note')).toHaveFocus();
    await user.keyboard('seen from the keyboard{Escape}');
    await waitFor(() => expect(screen.queryByTestId('alarm-ack-dialog')).toBeNull());

    row(open[1]!.id).focus();
    await user.keyboard('{Enter}');
    const details = await screen.findByTestId('alarm-details');
    expect(await within(details).findByRole('heading', { name: `${open[1]!.type} on ${open[1]!.deviceName}` })).toBeVisible();
    expect(params().get('alarm')).toBe(String(open[1]!.id));
  });
});
