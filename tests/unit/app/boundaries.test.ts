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
});
