// @vitest-environment jsdom
/**
 * The Overview (issue 13) against a real main: a management node simulator raising alarms (collected
 * by polling) with a signed-in connection and its devices fetched, and a Defender and a Falcon
 * tenant polled once. A window opens on it; each tile counts what its page shows and opens that
 * page filtered (Back returns); the sidebar's badges and the tiles follow main's events; the empty
 * states say what to do; after a restart without the simulators every tile says what it is as of.
 */
import '@testing-library/jest-dom/vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Bridge } from '../../../shared/contract';
import type { Overview } from '../../../shared/model/overview';
import { keys } from '../../../renderer/api/keys';
import { until } from '../../support/until';
import { stubScrollerSize } from './support/layout';
import { MainBridge, type NodeSim } from './support/main-bridge';
import { address, renderApp } from './support/render';
import { params, pollOnce, scoredMain, type ScoredMain } from './support/zta-steps';

let restore: () => void;
beforeEach(() => (restore = stubScrollerSize(600)));
afterEach(() => restore());

const count = (n: number) => n.toLocaleString('en');
const tile = (id: string) => screen.getByTestId(`tile-${id}`);
/** Alarms collected every 100 ms; events to the window at once. */
const quickAlarms = { pollIntervalMs: 100, changedEveryMs: 20, statusEveryMs: 50 };

interface Fixture extends ScoredMain {
  node: NodeSim;
  profileId: string;
}

/** The scored main of the ZTA tests, plus a signed-in node with 40 devices (fetched) and 60 alarm changes (collected). */
async function overviewMain(shared: boolean): Promise<Fixture> {
  const fx = await scoredMain({ shared, app: { alarms: quickAlarms } });
  const node = await fx.main.node({ seedDevices: 40, seedOrganizations: 6, alarms: { generator: { seed: 3 } } });
  const profileId = (await fx.main.addNodeProfile(node, { name: 'Ops node' })).id;
  await fx.main.call('inventory.refresh', { profileId, what: 'devices' });
  await fx.main.sim(node).call('alarms.generator.step', 60);
  const emitted = await fx.main.sim(node).call<number>('alarms.lastMessageId');
  await until('the alarms collected', async () => (await fx.main.call('alarms.status', { profileId })).stored.changes === emitted);
  return { ...fx, node, profileId };
}

describe('the Overview', () => {
  // Read by the tests here; the one that acknowledges and rescores has a main of its own.
  let fx: Fixture;
  beforeAll(async () => {
    fx = await overviewMain(true);
  });
  afterAll(() => fx?.main.close());
  const overview = () => fx.main.call('overview.get', { profileId: fx.profileId });

  it('is where a window opens once a connection exists, first in the sidebar', async () => {
    renderApp(fx.main, { at: '/' });
    await waitFor(() => expect(address()).toBe(`/overview?connection=${fx.profileId}`));
    expect(await screen.findByTestId('tile-alarms')).toBeVisible();
    const nav = screen.getByRole('navigation', { name: 'Sections' });
    expect(within(nav).getAllByRole('link')[0]).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Overview');
    expect(screen.getByTestId('overview-connection')).toHaveTextContent('Alarms and devices of Ops node');
  });

  it('a click made while the window decides where to open is never undone', async () => {
    // The connectors' answer waits: the start page cannot decide until it comes.
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const transport: Bridge = {
      invoke: async (c, req) => {
        if (c === 'connectors.list') await held;
        return fx.main.invoke(c, req);
      },
      on: (e, l) => fx.main.on(e, l),
    };
    const { user, queryClient } = renderApp(fx.main, { at: '/', transport });
    expect(await screen.findByText('Opening…')).toBeVisible();
    await user.click(within(screen.getByRole('navigation', { name: 'Sections' })).getByRole('link', { name: /^Devices/ }));
    await waitFor(() => expect(address()).toMatch(/^\/devices/));
    release();
    await waitFor(() => expect(queryClient.getQueryData(keys.connectors)).toBeDefined());
    await act(async () => undefined);
    expect(address()).toMatch(/^\/devices/);
    expect(await screen.findByTestId('devices-count')).toHaveTextContent('40 devices');
  });

  it('counts the active alarms by severity as the alarm list has them, per organization behind a button, each number linking to the filtered Alarms page', async () => {
    const { user } = renderApp(fx.main, { at: '/overview' });
    const o = await overview();
    if (o.alarms.state !== 'known') throw new Error(`alarms ${o.alarms.state}`);
    const list = (await fx.main.call('alarms.list', { profileId: fx.profileId, limit: 1000 })).rows;
    const alarms = await screen.findByTestId('tile-alarms');
    await waitFor(() => expect(within(alarms).getByTestId('alarms-active')).toHaveTextContent(`${count(list.length)} active`));
    for (const s of ['critical', 'major', 'minor', 'warning', 'indeterminate'] as const) {
      expect(within(alarms).getByTestId(`alarms-${s}`)).toHaveTextContent(String(list.filter((a) => a.severity === s).length));
      // Beside the count, words that cannot be read as a second count (issue 22.13: "5  5 unacknowledged").
      const active = o.alarms.active[s];
      const unacked = o.alarms.unacknowledged[s];
      const sub = within(alarms).queryByTestId(`alarms-${s}-unacked`)?.textContent ?? '';
      expect(sub).toBe(active === 0 ? '' : unacked === 0 ? 'all acknowledged' : unacked >= active ? 'all unacknowledged' : `${unacked} unacknowledged`);
    }
    expect(within(alarms).getByTestId('tile-asof')).toHaveTextContent(/^as of \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}.* · live \(polling the node\)/);

    // Per organization: the most critical first, each with its counts.
    await user.click(within(alarms).getByRole('button', { name: /By organization/ }));
    const rows = within(within(alarms).getByTestId('alarms-orgs')).getAllByTestId('alarms-org');
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual(o.alarms.organizations.map((x) => x.org));
    const first = o.alarms.organizations[0]!;
    expect(within(rows[0]!).getAllByRole('cell')[0]).toHaveTextContent(String(first.critical));

    // A number opens the Alarms page with its filter in the address; Back returns here.
    await user.click(within(alarms).getByTestId('alarms-critical-unacked'));
    await waitFor(() => expect(address()).toMatch(/^\/alarms\?/));
    expect(Object.fromEntries(params())).toEqual({ connection: fx.profileId, severity: 'critical', ack: 'unacked' });
    window.history.back();
    expect(await screen.findByTestId('tile-alarms')).toBeVisible();
    expect(address()).toBe(`/overview?connection=${fx.profileId}`);
  });

  it('shows the bands of every host as the ZTA dashboard counts them, and each band opens it filtered', async () => {
    const { user } = renderApp(fx.main, { at: '/overview' });
    const snapshot = await fx.main.call('zta.snapshot');
    const total = snapshot.rows.hostId.length;
    const high = snapshot.rows.band.filter((b) => b === 4).length;
    const risk = await screen.findByTestId('tile-risk');
    await waitFor(() => expect(within(risk).getByTestId('risk-hosts')).toHaveTextContent(`${count(total)} hosts`));
    expect(within(risk).getByTestId('risk-high')).toHaveTextContent(`${count(high)} in High Risk`);
    expect(within(risk).getByTestId('tile-asof')).toHaveTextContent(/^as of \d{4}-\d{2}-\d{2}/);
    expect(within(risk).getByTestId('tile-asof').querySelector('time')).toHaveAttribute('datetime', snapshot.asOf!);
    // One cycle each: nothing to compare yet, and the tile says so rather than 0.
    expect(within(tile('entered')).getByTestId('tile-empty')).toHaveTextContent('Only one cycle so far');
    expect(within(tile('entered')).queryByTestId('entered-count')).toBeNull();

    await user.click(within(risk).getByTestId('risk-high'));
    expect(await screen.findByTestId('zta-count')).toHaveTextContent(`${count(high)} of ${count(total)}`);
    expect(params().get('band')).toBe('High Risk');
    window.history.back();
    await screen.findByTestId('tile-risk');
    await user.click(within(tile('risk')).getByTestId('risk-band-Low Risk'));
    const low = snapshot.rows.band.filter((b) => b === 1).length;
    expect(await screen.findByTestId('zta-count')).toHaveTextContent(`${count(low)} of ${count(total)}`);
  });

  it('counts the devices by deployment status as the devices page does; a failed one opens its details', async () => {
    const { user } = renderApp(fx.main, { at: '/overview' });
    const devices = (await fx.main.call('inventory.devices', { profileId: fx.profileId })).items;
    const failed = devices.filter((d) => d.deploymentStatus === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    const t = await screen.findByTestId('tile-devices');
    await waitFor(() => expect(within(t).getByTestId('devices-total')).toHaveTextContent(`${devices.length} devices`));
    for (const s of ['saved', 'deploying', 'deployed', 'failed'] as const) expect(within(t).getByTestId(`devices-${s}`)).toHaveTextContent(String(devices.filter((d) => d.deploymentStatus === s).length));
    expect(within(t).getAllByTestId('devices-failed-device').map((a) => a.textContent).sort()).toEqual(failed.map((d) => d.deviceName).sort());
    expect(within(t).getByTestId('tile-asof')).toHaveTextContent(/^fetched \d{4}-\d{2}-\d{2}/);

    await user.click(within(t).getByTestId('devices-failed'));
    expect(await screen.findByTestId('devices-count')).toHaveTextContent(`${failed.length} of ${devices.length}`);
    expect(params().get('status')).toBe('failed');
    window.history.back();
    await user.click(within(await screen.findByTestId('tile-devices')).getAllByTestId('devices-failed-device')[0]!);
    expect(await screen.findByTestId('device-details')).toBeVisible();
  });

  it('shows each connector’s health as main has it: its data, the next poll and its publication', async () => {
    renderApp(fx.main, { at: '/overview' });
    const o = await overview();
    const t = await screen.findByTestId('tile-connectors');
    for (const c of o.connectors) {
      const row = await within(t).findByTestId(`connector-health-${c.name}`);
      expect(row).toHaveAttribute('data-health', 'online');
      expect(row).toHaveTextContent(`${count(c.hosts!)} hosts as of`);
      expect(within(row).getByTestId('connector-asof')).toHaveAttribute('datetime', c.asOf!);
      expect(row).toHaveTextContent(/Next poll in \d+ (min|h)/);
      expect(row).toHaveTextContent(c.publication.state === 'published' ? 'published' : c.publication.state === 'waiting' ? 'not published' : 'No completed cycle');
    }
    expect(within(t).getByTestId('tile-asof')).toHaveTextContent(/^checked \d{4}-\d{2}-\d{2}/);
  });

  it('the sidebar’s badges and the tiles follow an acknowledgement and a new cycle', async () => {
    // It acknowledges and rescores: on a main of its own, so that the file's stays at one cycle.
    const fx = await overviewMain(false);
    const overview = () => fx.main.call('overview.get', { profileId: fx.profileId });
    renderApp(fx.main, { at: '/overview' });
    const o = await overview();
    if (o.alarms.state !== 'known' || o.risk.state !== 'known') throw new Error('not known');
    const critical = o.alarms.unacknowledged.critical;
    expect(critical).toBeGreaterThan(0);
    expect(await screen.findByTestId('nav-badge-alarms')).toHaveTextContent(String(critical));
    expect(screen.getByRole('link', { name: new RegExp(`Alarms, ${critical} unacknowledged critical alarms?`) })).toBeVisible();
    // The badge counts High Risk only: the hosts Falcon has not assessed are not in it (EDR-N1).
    expect(o.risk.bands['Not assessed']).toBeGreaterThan(0);
    const ztaBadge = () => screen.queryByTestId('nav-badge-zta')?.textContent ?? '0';
    expect(ztaBadge()).toMatch(new RegExp(`^${count(o.risk.bands['High Risk'])}\\b`));

    // Acknowledged on the node: alarms.changed refreshes the badge and the tile.
    const target = (await fx.main.call('alarms.list', { profileId: fx.profileId, filter: { severity: ['critical'] }, limit: 1 })).rows[0]!;
    await fx.main.call('alarms.acknowledge', { profileId: fx.profileId, ids: [target.id], note: 'on it' });
    await waitFor(() => expect(screen.queryByTestId('nav-badge-alarms')?.textContent ?? '').toMatch(new RegExp(`^${critical - 1}\\b`)));
    await waitFor(() => expect(within(tile('alarms')).getByTestId('alarms-critical-unacked')).toHaveTextContent(`${critical - 1} unacknowledged`));

    // Stricter band edges rescore a tenant as a cycle of its own: hosts enter High Risk.
    const done = fx.main.next('edr.progress', (p) => p.connectorId === fx.defender.id && p.phase === 'completed', 30_000);
    await fx.main.call('zta.applyRisk', { connectorId: fx.defender.id, risk: { bands: [5, 10, 15, 20] } });
    await done;
    const after: Overview = await overview();
    if (after.risk.state !== 'known' || after.risk.entered.state !== 'known') throw new Error('entered not known');
    const entered = (await fx.main.call('zta.overview', {})).changes.enteredHighRisk.length;
    expect(after.risk.entered.count).toBe(entered);
    await waitFor(() => expect(within(tile('entered')).getByTestId('entered-count')).toHaveTextContent(`${count(entered)} hosts since the last cycle`));
    expect(within(tile('entered')).getAllByTestId('entered-host')).toHaveLength(Math.min(5, entered));
    await waitFor(() => expect(screen.getByTestId('nav-badge-zta')).toHaveTextContent(count(after.risk.state === 'known' ? after.risk.bands['High Risk'] : -1)));
  });
});

describe('the Overview’s empty and offline states', () => {
  it('with nothing configured says what to do: a connection, a connector or the demo workspace', async () => {
    const main = await MainBridge.start();
    const { user } = renderApp(main, { at: '/overview' });
    const nothing = await screen.findByTestId('overview-nothing');
    for (const name of ['Add a connection', 'Add a connector', 'Open demo workspace']) expect(within(nothing).getByRole(name === 'Add a connector' ? 'link' : 'button', { name })).toBeVisible();
    expect(screen.queryByTestId('nav-badge-alarms')).toBeNull();
    expect(screen.queryByTestId('nav-badge-zta')).toBeNull();
    await user.click(within(nothing).getByRole('button', { name: 'Add a connection' }));
    expect(await screen.findByTestId('profile-form')).toBeVisible();
  });

  it('a connection never signed in and connectors never polled: each tile says so, never 0, and signing in collects', async () => {
    const main = await MainBridge.start({ app: { edr: { firstPullDelayMs: 3_600_000 }, alarms: quickAlarms } });
    const node = await main.node({ seedDevices: 12, alarms: { generator: { seed: 5 } } });
    await main.sim(node).call('alarms.generator.step', 20);
    const profile = await main.addNodeProfile(node, { name: 'Lab node', signIn: false });
    const defender = await main.defender([{ hosts: 10 }]);
    const t = defender.tenants[0]!;
    await main.call('connectors.save', { name: 'Lab Defender', vendor: 'defender', tenantId: t.tenantId, clientId: t.clientId, clientSecret: t.clientSecret, apiUrl: defender.apiUrl, idpUrl: defender.idpUrl, tls: { mode: 'custom-ca', caName: 'd.pem', caPem: defender.certificatePem }, pollIntervalMinutes: 60 });
    const { user } = renderApp(main, { at: '/' });
    const alarms = await screen.findByTestId('tile-alarms');
    expect(address()).toMatch(/^\/overview/);
    expect(within(alarms).getByTestId('tile-empty')).toHaveTextContent('The alarms of Lab node were never collected');
    expect(within(tile('devices')).getByTestId('tile-empty')).toHaveTextContent('The devices of Lab node were never fetched: sign in to Lab node to fetch them');
    expect(within(tile('risk')).getByTestId('tile-empty')).toHaveTextContent('The connector has not completed a poll cycle yet');
    expect(within(tile('connectors')).getByTestId('connector-health-Lab Defender')).toHaveAttribute('data-health', 'never');
    for (const id of ['alarms', 'devices', 'risk', 'entered']) expect(within(tile(id)).queryByTestId('tile-asof')).toBeNull();
    expect(screen.queryByTestId('nav-badge-alarms')).toBeNull();

    // Signing in collects the alarms and fetches the devices once (C-11); the tiles fill in.
    await user.click(within(alarms).getByRole('button', { name: 'Sign in to Lab node' }));
    await waitFor(() => expect(within(tile('alarms')).getByTestId('alarms-active')).toBeVisible());
    const devices = await waitFor(() => within(tile('devices')).getByTestId('devices-total'));
    expect(devices).toHaveTextContent('12 devices');
    const active = await until('the alarms collected', async () => {
      const o = await main.call('overview.get', { profileId: profile.id });
      return o.alarms.state === 'known' && o.alarms.active.total > 0 && o.alarms.active.total;
    });
    await waitFor(() => expect(within(tile('alarms')).getByTestId('alarms-active')).toHaveTextContent(`${active} active`));
  });

  it('after a restart without the simulators every tile says what its numbers are as of', async () => {
    const fx = await overviewMain(false);
    const before = await fx.main.call('overview.get', { profileId: fx.profileId });
    // A second cycle of one tenant, so the "entered High Risk" tile has a comparison to show.
    await pollOnce(fx.main, fx.falcon.id);
    const main = await fx.main.restart();
    const o = await main.call('overview.get', { profileId: fx.profileId });
    if (o.alarms.state !== 'known' || o.devices.state !== 'known' || o.risk.state !== 'known' || before.alarms.state !== 'known') throw new Error('not known after the restart');
    expect(o.alarms.live).toBe(false);
    expect(o.alarms.active).toEqual(before.alarms.active);
    renderApp(main, { at: '/' });
    const alarms = await screen.findByTestId('tile-alarms');
    expect(within(alarms).getByTestId('tile-asof')).toHaveTextContent('offline: Ops node is signed out');
    expect(within(alarms).getByTestId('tile-asof').querySelector('time')).toHaveAttribute('datetime', o.alarms.asOf);
    expect(within(tile('devices')).getByTestId('tile-asof').querySelector('time')).toHaveAttribute('datetime', o.devices.asOf);
    expect(within(tile('risk')).getByTestId('tile-asof').querySelector('time')).toHaveAttribute('datetime', o.risk.asOf);
    expect(within(tile('entered')).getByTestId('tile-asof').querySelector('time')).toHaveAttribute('datetime', o.risk.asOf);
    for (const id of ['alarms', 'risk', 'entered', 'devices', 'connectors']) expect(within(tile(id)).getByTestId('tile-asof')).toHaveTextContent(/^(as of|fetched|checked) \d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/);
    expect(within(alarms).getByTestId('alarms-active')).toHaveTextContent(`${count(o.alarms.active.total)} active`);
  });
});
