/**
 * The alarm page's tests: a real main polling a node simulator every 100 ms (events every 20 ms),
 * whose alarm generator the test steps itself (no background changes), and what the test reads
 * back from main and the node to compare with the page.
 */
import { screen, within } from '@testing-library/react';
import type { AlarmFilter, AlarmPage } from '../../../../shared/model/alarms';
import { until } from '../../../support/until';
import { MainBridge, type NodeSim, type SimHandle } from './main-bridge';

export interface AlarmMain {
  main: MainBridge;
  node: NodeSim;
  sim: SimHandle;
  profileId: string;
  /** The signed-in user's name on the node (who a handling names). */
  user: string;
}

/** The node's alarm as it keeps it (the simulator's model). */
export interface SimAlarmRecord {
  deviceName: string;
  object: string;
  type: string;
  specificProblem: string;
  changes: Array<{ eventTime: number; perceivedSeverity: string; alarmText: string }>;
  handlings: Array<{ time: number; state: string; user: string; description: string }>;
}

export const ALARM_TIMING = { pollIntervalMs: 100, changedEveryMs: 20, statusEveryMs: 50, notifyEveryMs: 0 };

export async function alarmMain(o: { role?: 'admin' | 'operator' | 'viewer'; changes?: number; mode?: 'desktop' | 'browser' } = {}): Promise<AlarmMain> {
  const main = await MainBridge.start({ app: { alarms: ALARM_TIMING }, ...(o.mode ? { mode: o.mode } : {}) });
  const node = await main.node({ seedDevices: 12, seedOrganizations: 3 });
  const role = o.role ?? 'admin';
  const profileId = (await main.addNodeProfile(node, { name: 'Lab node', role })).id;
  const sim = main.sim(node);
  const am = { main, node, sim, profileId, user: node.users.find((u) => u.role === role)!.username };
  if (o.changes) await step(am, o.changes);
  return am;
}

/** `n` changes on the node (the events it answers), and until main stored them all. */
export async function step(am: AlarmMain, n: number): Promise<Array<{ alarm: SimAlarmRecord }>> {
  const events = await am.sim.call<Array<{ alarm: SimAlarmRecord }>>('alarms.generator.step', n);
  const onNodeCount = async () => (await am.sim.call<SimAlarmRecord[]>('alarms.model.all')).reduce((k, a) => k + a.changes.length, 0);
  await until('every change stored', async () => (await am.main.call('alarms.status', { profileId: am.profileId })).stored.changes >= (await onNodeCount()));
  return events;
}

export const list = (am: AlarmMain, filter: AlarmFilter = {}, limit = 1000): Promise<AlarmPage> => am.main.call('alarms.list', { profileId: am.profileId, filter, limit });

/** The node's record of a stored alarm. */
export async function onNode(am: AlarmMain, a: { deviceName: string; object: string; type: string; specificProblem: string }): Promise<SimAlarmRecord> {
  return am.sim.call<SimAlarmRecord>('alarms.model.get', { deviceName: a.deviceName, object: a.object, type: a.type, specificProblem: a.specificProblem });
}

/** The alarm ids of the rows drawn, top to bottom. */
export const shownIds = (): number[] => screen.queryAllByTestId('alarm-row').map((r) => Number(r.getAttribute('data-alarm')));
export const freshIds = (): number[] =>
  screen
    .queryAllByTestId('alarm-row')
    .filter((r) => r.getAttribute('data-fresh') === 'true')
    .map((r) => Number(r.getAttribute('data-alarm')));
export const row = (id: number): HTMLElement => screen.getAllByTestId('alarm-row').find((r) => r.getAttribute('data-alarm') === String(id))!;
export const checkbox = (id: number): HTMLElement => within(row(id)).getByRole('checkbox');
export const params = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '');
