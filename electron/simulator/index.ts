/** The management node simulator: plain Node, never electron. */
export { startMgmtSimulator, BOOTSTRAP_CLIENT_NAME } from './server';
export { SimClock, DAY_MS } from './clock';
export { LOGIN_PAGE } from './http';
export { ERRORS_URL } from './errors';
export type {
  MgmtSimulator,
  MgmtSimulatorOptions,
  SimClientView,
  SimDescription,
  SimFaults,
  SimRequestRecord,
  SimRole,
  SimStats,
  SimUser,
} from './types';
