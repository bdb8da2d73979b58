/**
 * The demo's simulators with fault switches, for the app that tests start (tests/support/app-harness.ts
 * gives this module to createApp): the same shape as @northbound/simulators/demo.
 */
export { startMgmtSimulator } from './index';
export { startDefenderSimulator } from './defender';
export { startFalconSimulator } from './falcon';
export { defenderTenant } from '../defender/tenant-config';
