/** The three worlds are kept apart by lint rules, not memory: prove the rules fire. */
import { ESLint } from 'eslint';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: path.resolve('.') });
async function ruleIds(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.resolve(file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? 'fatal');
}

describe('process boundaries', () => {
  it('shared/ may import neither Node nor electron nor Node-only packages', async () => {
    expect(await ruleIds('shared/model/x.ts', "import fs from 'node:fs';\nexport const a = fs;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('shared/model/x.ts', "import path from 'path';\nexport const a = path;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('shared/model/x.ts', "import { app } from 'electron';\nexport const a = app;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('shared/model/x.ts', "import { request } from 'undici';\nexport const a = request;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('shared/model/x.ts', 'export const a = document.title;\n')).toContain('no-restricted-globals');
  });

  it('the renderer may not import Node, electron or main-process code', async () => {
    expect(await ruleIds('renderer/features/x.tsx', "import os from 'node:os';\nexport const a = os;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('renderer/features/x.tsx', "import { ipcRenderer } from 'electron';\nexport const a = ipcRenderer;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('renderer/features/x.tsx', "import { createApp } from '../../electron/app/services';\nexport const a = createApp;\n")).toContain('no-restricted-imports');
  });

  it('only main.ts, preload.ts and platform/ import electron', async () => {
    expect(await ruleIds('electron/net/x.ts', "import { net } from 'electron';\nexport const a = net;\n")).toContain('no-restricted-imports');
    expect(await ruleIds('electron/platform/x.ts', "import { safeStorage } from 'electron';\nexport const a = safeStorage;\n")).not.toContain('no-restricted-imports');
  });

  it('CSV is written only by the one CSV writer (shared/csv.ts): Papa.unparse is refused in product code', async () => {
    const code = "import Papa from 'papaparse';\nexport const a = Papa.unparse([['=1']]);\n";
    expect(await ruleIds('electron/edr/x.ts', code)).toContain('no-restricted-syntax');
    expect(await ruleIds('renderer/features/x.ts', code)).toContain('no-restricted-syntax');
  });

  it('a local module named like a Node built-in is fine', async () => {
    expect(await ruleIds('renderer/api/x.ts', "import { a } from './events';\nexport const b = a;\n")).not.toContain('no-restricted-imports');
  });
  // Layers (issue 21.2): the rules in eslint.config.js ("Layers"); each case is a real file place and a real target.
  const layerRefused = async (file: string, spec: string) => {
    const [result] = await eslint.lintText(`import { a } from '${spec}';\nexport const b = a;\n`, { filePath: path.resolve(file) });
    return (result?.messages ?? []).filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
  };

  it('infrastructure (net/, mgmt/, store/) imports no feature and not app/', async () => {
    const [message] = await layerRefused('electron/store/x.ts', '../edr/registry');
    expect(message).toMatch(/electron\/store\/ is infrastructure/);
    expect(await layerRefused('electron/store/x.ts', '../app/ports')).toHaveLength(1);
    expect(await layerRefused('electron/net/x.ts', '../alarms/wire')).toHaveLength(1);
    expect(await layerRefused('electron/mgmt/x.ts', '../inventory/node-api')).toHaveLength(1);
    // The same folder reached through its full name, and type-only imports, are refused too.
    expect(await layerRefused('electron/store/x.ts', '../../electron/inventory/service')).toHaveLength(1);
    const [typeOnly] = await eslint.lintText("import type { A } from '../alarms/wire';\nexport type B = A;\n", { filePath: path.resolve('electron/store/x.ts') });
    expect(typeOnly?.messages.map((m) => m.ruleId)).toContain('no-restricted-imports');
    // Down is fine: the store may use net/ and shared/.
    expect(await layerRefused('electron/store/x.ts', '../net/retry')).toEqual([]);
    expect(await layerRefused('electron/store/x.ts', '../../shared/model/alarms')).toEqual([]);
  });

  it('an electron feature imports neither app/ nor another feature, from any depth', async () => {
    expect(await layerRefused('electron/inventory/x.ts', '../app/events')).toHaveLength(1);
    expect(await layerRefused('electron/alarms/x.ts', '../inventory/throttle')).toHaveLength(1);
    expect(await layerRefused('electron/edr/falcon/x.ts', '../../alarms/service')).toHaveLength(1);
    expect(await layerRefused('electron/edr/falcon/x.ts', '../../app/router')).toHaveLength(1);
    // Its own folders, the layers below and shared/ are fine.
    expect(await layerRefused('electron/edr/falcon/x.ts', '../registry')).toEqual([]);
    expect(await layerRefused('electron/edr/x.ts', './falcon/api')).toEqual([]);
    expect(await layerRefused('electron/alarms/x.ts', '../mgmt/node-answer')).toEqual([]);
    expect(await layerRefused('electron/inventory/x.ts', '../store/sqlite')).toEqual([]);
  });

  it('a feature\'s store belongs to the feature: infrastructure and the other features cannot reach it (issue 21.1)', async () => {
    expect(await layerRefused('electron/store/x.ts', '../edr/store/edr-db')).toHaveLength(1);
    expect(await layerRefused('electron/store/x.ts', '../inventory/store/inventory-store')).toHaveLength(1);
    expect(await layerRefused('electron/alarms/x.ts', '../edr/store/edr-store')).toHaveLength(1);
    expect(await layerRefused('electron/edr/store/x.ts', '../../inventory/store/inventory-db')).toHaveLength(1);
    expect(await layerRefused('electron/inventory/store/x.ts', '../../app/ports')).toHaveLength(1);
    expect(await layerRefused('electron/store/x.ts', '../alarms/store/alarms-db')).toHaveLength(1);
    expect(await layerRefused('electron/edr/x.ts', '../alarms/store/alarm-store')).toHaveLength(1);
    expect(await layerRefused('electron/alarms/store/x.ts', '../../app/ports')).toHaveLength(1);
    // The feature itself, and its store on the infrastructure below, are fine.
    expect(await layerRefused('electron/edr/x.ts', './store/edr-store')).toEqual([]);
    expect(await layerRefused('electron/inventory/x.ts', './store/inventory-store')).toEqual([]);
    expect(await layerRefused('electron/alarms/x.ts', './store/alarm-store')).toEqual([]);
    expect(await layerRefused('electron/alarms/store/x.ts', '../../store/sqlite')).toEqual([]);
    expect(await layerRefused('electron/edr/store/x.ts', '../../store/sqlite')).toEqual([]);
  });

  it('a renderer feature imports components/, api/, app/, stores/ and shared/, never another feature', async () => {
    const [message] = await layerRefused('renderer/features/devices/x.tsx', '../onboarding/OnboardingWizard');
    expect(message).toMatch(/renderer\/features\/devices\/ is a renderer feature/);
    expect(await layerRefused('renderer/features/onboarding/steps/x.tsx', '../../devices/StatusChip')).toHaveLength(1);
    // The renderer's other rules still hold in a feature.
    expect(await layerRefused('renderer/features/devices/x.tsx', 'node:fs')).toHaveLength(1);
    for (const spec of ['../../components/StatusChip', '../../api/inventory', '../../app/useInventoryProfile', '../../stores/ui', '../../../shared/model/profile', './DevicesTable']) {
      expect(await layerRefused('renderer/features/devices/x.tsx', spec)).toEqual([]);
    }
    expect(await layerRefused('renderer/features/onboarding/steps/x.tsx', '../bulk/BulkOnboardingDialog')).toEqual([]);
  });

  // The simulators beside the product (issue 21.3): the zones of eslint.config.js ("The simulators").
  const simulatorRefused = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.resolve(file) });
    return (result?.messages ?? []).filter((m) => m.ruleId === '@typescript-eslint/no-restricted-imports' || m.ruleId === 'no-restricted-syntax').map((m) => m.message);
  };

  it('the simulators import no product code, and from shared/ only types', async () => {
    const [message] = await simulatorRefused('packages/simulators/src/falcon/x.ts', "import { FALCON_CLOUDS } from '../../../../electron/edr/falcon/regions';\nexport const a = FALCON_CLOUDS;\n");
    expect(message).toMatch(/import no product code/);
    expect(await simulatorRefused('packages/simulators/src/x.ts', "import { createLogger } from '../../../electron/log';\nexport const a = createLogger;\n")).toHaveLength(1);
    // The console's own schema is not the node's: a value import from shared/ is refused, a type is the wire.
    expect(await simulatorRefused('packages/simulators/src/x.ts', "import { OAuthClientBody } from '../../../shared/model/oauth-client';\nexport const a = OAuthClientBody;\n")).toHaveLength(1);
    expect(await simulatorRefused('packages/simulators/src/x.ts', "import type { OAuthClient } from '../../../shared/model/oauth-client';\nexport type A = OAuthClient;\n")).toEqual([]);
    expect(await simulatorRefused('packages/simulators/src/x.ts', "import { z } from 'zod';\nimport { json } from './http';\nexport const a = [z, json];\n")).toEqual([]);
  });

  it('the product starts simulators only in the demo and simulate entry points, and only without fault switches', async () => {
    const importOf = (spec: string) => `import { a } from '${spec}';\nexport const b = a;\n`;
    expect(await simulatorRefused('electron/inventory/x.ts', importOf('@northbound/simulators/demo'))).toHaveLength(1);
    expect(await simulatorRefused('electron/app/services.ts', "export const load = () => import('@northbound/simulators/demo');\n")).toHaveLength(1);
    expect(await simulatorRefused('electron/app/x.ts', importOf('../../packages/simulators/src/demo'))).toHaveLength(1);
    expect(await simulatorRefused('renderer/features/x.tsx', importOf('@northbound/simulators/demo'))).not.toEqual([]);
    // The entry points: the plain entry, never the testing one (static or loaded later).
    expect(await simulatorRefused('electron/app/demo.ts', importOf('@northbound/simulators/demo'))).toEqual([]);
    expect(await simulatorRefused('electron/app/demo.ts', "export const load = () => import('@northbound/simulators/demo');\n")).toEqual([]);
    const [message] = await simulatorRefused('electron/app/demo-edr.ts', importOf('@northbound/simulators/testing/defender'));
    expect(message).toMatch(/only @northbound\/simulators\/demo/);
    expect(await simulatorRefused('electron/cli.ts', importOf('@northbound/simulators/testing'))).toHaveLength(1);
    expect(await simulatorRefused('electron/app/demo.ts', "export const load = () => import('@northbound/simulators/testing/demo');\n")).toHaveLength(1);
    expect(await simulatorRefused('electron/cli-simulate-edr.ts', importOf('@northbound/simulators/internal/falcon/server'))).toHaveLength(1);
  });
});
