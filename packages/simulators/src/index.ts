/** The management node simulator: plain Node, never electron. */
export { startMgmtSimulator, BOOTSTRAP_CLIENT_NAME } from './server';
export { SimClock, DAY_MS } from './clock';
export { LOGIN_PAGE } from './http';
export { ERRORS_URL } from './errors';
export { DEFAULT_SEED_DEVICES, DEFAULT_SEED_ORGANIZATIONS } from './inventory';
export { SEED_LIMITS } from './inventory-seed';
export { DEFAULT_ALARM_EXCHANGE, ROUTING_KEY_PATTERN, type SimAlarmControl, type SimAlarmOptions } from './alarms';
export { DEFAULT_DEPLOY_SECONDS, TASK_PENDING_MS } from './tasks';
export type {
  MgmtSimulator,
  MgmtSimulatorOptions,
  SimClientView,
  SimDeploymentStatus,
  SimDeviceView,
  SimDescription,
  SimFaults,
  SimInventoryView,
  SimOrganizationView,
  SimRequestRecord,
  SimRole,
  SimStats,
  SimUser,
} from './types';
