/**
 * Where the demo's simulators come from: a leaf, so that the demo workspace (demo.ts) and its EDR
 * simulators (demo-edr.ts) both use it without importing each other.
 */
import type { DemoSimulators } from '@northbound/simulators/demo';

export type { DemoSimulators };
/** Loads the demo's simulators: @northbound/simulators/demo, or the testing entry's in tests. */
export type SimulatorsLoader = () => Promise<DemoSimulators>;
/** Loaded when the demo opens: an app without it (a poller's process included) does not carry the simulators. */
export const loadDemoSimulators: SimulatorsLoader = () => import('@northbound/simulators/demo');
