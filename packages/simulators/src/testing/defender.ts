/** The Defender simulator for tests: the plain simulator plus its fault switches (`sim.faults`). Test-only. */
import { startDefenderSimulator as startPlain } from '../defender/server';
import type { DefenderSimulator as PlainDefenderSimulator, DefenderSimulatorOptions } from '../defender/types';
import { defaultFaults, defenderFaultHooks, type DefenderFaults } from './defender-faults';

export { DOCUMENTED_LIMITS } from '../defender/rate';
export { REQUIRED_PERMISSIONS, defenderTenant } from '../defender/tenant-config';
export { DEFENDER_AUDIENCE, DEFENDER_APP_ID, MCAS_APP_ID } from '../defender/tokens';
export { machineAt, machineId, machineIndex, machineCves, bulkRowsOf, softwareAt, cveCatalogue } from '../defender/data';
export { SimClock } from '../clock';
export { defaultFaults, type DefenderFaults } from './defender-faults';
export type { DefenderPermission, DefenderSimulatorOptions, DefenderStatsView, DefenderTenantConfig, EndpointClass, RateLimits, RateWindow } from '../defender/types';

/** The simulator with its fault switches. */
export type DefenderSimulator = PlainDefenderSimulator & { faults: DefenderFaults };

export async function startDefenderSimulator(opts: DefenderSimulatorOptions): Promise<DefenderSimulator> {
  const faults = defaultFaults();
  const sim = await startPlain(opts, defenderFaultHooks(faults));
  return Object.assign(sim, { faults });
}

/** A simulator a test did not start itself (the app's demo tenant) with its switches; it must come from this entry. */
export function withFaults(sim: PlainDefenderSimulator): DefenderSimulator {
  if (!('faults' in sim)) throw new Error('This Defender simulator has no fault switches: start it from @northbound/simulators/testing/defender.');
  return sim as DefenderSimulator;
}
