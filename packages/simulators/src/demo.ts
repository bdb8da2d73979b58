/**
 * The product's entry to the simulators: what the demo workspace and `northbound simulate` start.
 * The plain simulators, without fault switches (those are test-only: @northbound/simulators/testing),
 * so the desktop bundle carries none of them (tests/unit/app/bundle.test.ts).
 */
import { startMgmtSimulator as startMgmt } from './server';
import { startDefenderSimulator as startDefender } from './defender/server';
import { startFalconSimulator as startFalcon } from './falcon/server';
import type { defenderTenant } from './defender/tenant-config';
import type { MgmtSimulator, MgmtSimulatorOptions } from './types';
import type { DefenderSimulator, DefenderSimulatorOptions } from './defender/types';
import type { FalconSimulator, FalconSimulatorOptions } from './falcon/types';

export { REQUIRED_PERMISSIONS, defenderTenant } from './defender/tenant-config';
export type { MgmtSimulator, MgmtSimulatorOptions, SimDescription, SimUser } from './types';
export type { DefenderSimulator, DefenderSimulatorOptions, DefenderTenantConfig } from './defender/types';
export type { FalconCloud, FalconSimulator, FalconSimulatorOptions } from './falcon/types';

export const startMgmtSimulator = (opts: MgmtSimulatorOptions = {}): Promise<MgmtSimulator> => startMgmt(opts);
export const startDefenderSimulator = (opts: DefenderSimulatorOptions): Promise<DefenderSimulator> => startDefender(opts);
export const startFalconSimulator = (opts: FalconSimulatorOptions = {}): Promise<FalconSimulator> => startFalcon(opts);

/** What the demo workspace starts its simulators with (this module; the tests give it the testing entry's). */
export interface DemoSimulators {
  startMgmtSimulator(opts?: MgmtSimulatorOptions): Promise<MgmtSimulator>;
  startDefenderSimulator(opts: DefenderSimulatorOptions): Promise<DefenderSimulator>;
  startFalconSimulator(opts?: FalconSimulatorOptions): Promise<FalconSimulator>;
  defenderTenant: typeof defenderTenant;
}
