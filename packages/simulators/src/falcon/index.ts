/** The Falcon (EDR vendor A) simulator: plain Node, never electron. */
export { startFalconSimulator } from './server';
export { LIMITS as FALCON_SIM_LIMITS } from './devices';
export { MAX_SIM_HOSTS } from './tenant';
export type {
  FalconCloud,
  FalconClientSpec,
  FalconScope,
  FalconSimClient,
  FalconSimFaults,
  FalconSimStats,
  FalconSimulator,
  FalconSimulatorOptions,
  FalconTenantSpec,
} from './types';
