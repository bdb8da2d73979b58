/**
 * The management node simulator for tests: the plain simulator plus its fault switches
 * (`sim.faults`, mutable at any time). Test-only: product code imports @northbound/simulators/demo.
 */
import { startMgmtSimulator as startPlain } from '../server';
import type { MgmtSimulator as PlainMgmtSimulator, MgmtSimulatorOptions } from '../types';
import { defaultMgmtFaults, mgmtFaultHooks, type SimFaults } from './mgmt-faults';

export { BOOTSTRAP_CLIENT_NAME } from '../server';
export { SimClock, DAY_MS } from '../clock';
export { LOGIN_PAGE } from '../http';
export { ERRORS_URL } from '../errors';
export { DEFAULT_SEED_DEVICES, DEFAULT_SEED_ORGANIZATIONS } from '../inventory';
export { SEED_LIMITS } from '../inventory-seed';
export { DEFAULT_ALARM_EXCHANGE, ROUTING_KEY_PATTERN, type SimAlarmControl, type SimAlarmOptions } from '../alarms/options';
export { DEFAULT_DEPLOY_SECONDS, TASK_PENDING_MS } from '../tasks';
export { defaultMgmtFaults, type SimFaults } from './mgmt-faults';
export type {
  MgmtSimulatorOptions,
  SimClientView,
  SimDeploymentStatus,
  SimDeviceView,
  SimDescription,
  SimInventoryView,
  SimOrganizationView,
  SimRequestRecord,
  SimRole,
  SimStats,
  SimUser,
} from '../types';

/** The simulator with its fault switches. */
export type MgmtSimulator = PlainMgmtSimulator & { faults: SimFaults };

export async function startMgmtSimulator(opts: MgmtSimulatorOptions = {}): Promise<MgmtSimulator> {
  const faults = defaultMgmtFaults();
  const sim = await startPlain(opts, mgmtFaultHooks(faults));
  return Object.assign(sim, { faults });
}

/** A simulator a test did not start itself (the app's demo node) with its switches; it must come from this entry. */
export function withFaults(sim: PlainMgmtSimulator): MgmtSimulator {
  if (!('faults' in sim)) throw new Error('This management node simulator has no fault switches: start it from @northbound/simulators/testing.');
  return sim as MgmtSimulator;
}
