/** The Microsoft Defender for Endpoint simulator (Entra ID token endpoint + Defender API): plain Node. */
export { startDefenderSimulator, defaultFaults } from './server';
export { DOCUMENTED_LIMITS } from './rate';
export { REQUIRED_PERMISSIONS, defenderTenant } from './tenant-config';
export { DEFENDER_AUDIENCE, DEFENDER_APP_ID, MCAS_APP_ID } from './tokens';
export { machineAt, machineId, machineIndex, machineCves, bulkRowsOf, softwareAt, cveCatalogue } from './data';
export { SimClock } from '../clock';
export type {
  DefenderFaults,
  DefenderPermission,
  DefenderSimulator,
  DefenderSimulatorOptions,
  DefenderStatsView,
  DefenderTenantConfig,
  EndpointClass,
  RateLimits,
  RateWindow,
} from './types';
