/** The Falcon simulator for tests: the plain simulator plus its fault switches (`sim.faults`). Test-only. */
import { startFalconSimulator as startPlain } from '../falcon/server';
import type { FalconSimulator as PlainFalconSimulator, FalconSimulatorOptions } from '../falcon/types';
import { defaultFalconFaults, falconFaultHooks, type FalconSimFaults } from './falcon-faults';

export { LIMITS as FALCON_SIM_LIMITS } from '../falcon/devices';
export { MAX_SIM_HOSTS } from '../falcon/tenant';
export { SimClock } from '../clock';
export { FALCON_CLOUDS, FALCON_CLOUD_HOSTS } from '../vendor/falcon-clouds';
export { defaultFalconFaults, type FalconSimFaults } from './falcon-faults';
export type { FalconCloud, FalconClientSpec, FalconScope, FalconSimClient, FalconSimStats, FalconSimulatorOptions, FalconTenantSpec } from '../falcon/types';

/** The simulator with its fault switches. */
export type FalconSimulator = PlainFalconSimulator & { faults: FalconSimFaults };

export async function startFalconSimulator(opts: FalconSimulatorOptions = {}): Promise<FalconSimulator> {
  const faults = defaultFalconFaults();
  const sim = await startPlain(opts, falconFaultHooks(faults));
  return Object.assign(sim, { faults });
}
