/**
 * The desktop bundle (dist-electron/main.cjs, scripts/build-electron.mjs) carries the simulators'
 * plain entry for the demo workspace, and none of their test-only fault switches (issue 21.3); every
 * worker thread it starts is built beside it.
 * Built in memory with the build script's own options.
 */
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without type declarations
import { WORKER_ENTRIES, mainTarget, testOnlyInputs } from '../../../scripts/build-electron.mjs';

/** Names of fault switches of the three simulators (packages/simulators/src/testing/*-faults.ts). */
const FAULT_SWITCHES = ['expiresInAsNumber', 'failingPaths', 'dataDelayMs', 'namelessDevices', 'deployFailures', 'wrongRegionAs308', 'burst429', 'revokeTokensAfterCalls', 'throttleNext', 'serverErrorNext', 'rejectAllTokens', 'bulkRefused'];

describe('the desktop bundle', () => {
  it('holds the demo simulators but no fault switch', async () => {
    const result = await build({ ...mainTarget, write: false, sourcemap: false, logLevel: 'silent' });
    const inputs = Object.keys(result.metafile!.inputs).map((p) => p.split('\\').join('/'));
    // The demo workspace's simulators are in (the plain entry and the three simulators it starts).
    expect(inputs).toContain('packages/simulators/src/demo.ts');
    for (const sim of ['packages/simulators/src/server.ts', 'packages/simulators/src/falcon/server.ts', 'packages/simulators/src/defender/server.ts']) expect(inputs).toContain(sim);
    // Nothing of the testing entry, which the build script would refuse too.
    expect(inputs.filter((p) => p.includes('/testing/'))).toEqual([]);
    expect(testOnlyInputs(result.metafile)).toEqual([]);
    const main = result.outputFiles!.find((f) => f.path.endsWith('main.cjs'))!.text;
    expect(FAULT_SWITCHES.filter((name) => main.includes(name))).toEqual([]);
  });

  it('every worker thread main starts is built beside main.cjs, from its own source', async () => {
    const result = await build({ ...mainTarget, write: false, sourcemap: false, logLevel: 'silent' });
    const main = result.outputFiles!.find((f) => f.path.endsWith('main.cjs'))!.text;
    // The names main passes to workerEntry (electron/store/sql-worker.ts): `<dir>/…/<name>-thread`.
    const started = [...new Set([...main.matchAll(/["']((?:[a-z-]+\/)+[a-z-]+-thread)["']/g)].map((m) => m[1]!))].sort();
    expect(started).toEqual(['alarms/store/alarms-writer-thread', 'edr/falcon/falcon-parse-thread', 'edr/store/edr-writer-thread', 'inventory/store/inventory-writer-thread', 'store/checkpointer-thread']);
    const entries = WORKER_ENTRIES as Record<string, string>;
    for (const name of started) expect(entries[name.split('/').pop()!]).toBe(`electron/${name}.ts`);
  });

  it('the build script refuses a bundle that took in the testing entry', () => {
    expect(testOnlyInputs({ inputs: { 'packages/simulators/src/testing/mgmt-faults.ts': {}, 'electron/main.ts': {} } })).toEqual(['packages/simulators/src/testing/mgmt-faults.ts']);
    expect(testOnlyInputs({ inputs: { 'packages/simulators/src/demo.ts': {} } })).toEqual([]);
  });
});
