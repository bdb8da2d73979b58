/**
 * The import graph's check (issue 21.2): `npm run deps` (dependency-cruiser, .dependency-cruiser.cjs)
 * refuses any circle in electron/, shared/, renderer/ and packages/ (the simulators' package included),
 * type-only imports included. Prove it
 * fires: the very command of package.json, with the project's config, over a small tree of files.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const repo = path.resolve('.');
const script: string = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8')).scripts.deps;
const bin = path.join(repo, 'node_modules/dependency-cruiser/bin/dependency-cruise.mjs');

const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-cycles-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
copyFileSync(path.join(repo, '.dependency-cruiser.cjs'), path.join(dir, '.dependency-cruiser.cjs'));
writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx', strict: true } }));
function put(file: string, text: string) {
  mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
  writeFileSync(path.join(dir, file), text);
}

/** `npm run deps` as package.json writes it, in the fixture tree: its exit code and report. */
async function deps(): Promise<{ code: number; out: string }> {
  const [command, ...args] = script.split(' ');
  expect(command).toBe('depcruise');
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], { cwd: dir });
    return { code: 0, out: stdout + stderr };
  } catch (e) {
    const err = e as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof err.code === 'number' ? err.code : -1, out: `${err.stdout ?? ''}${err.stderr ?? ''}` };
  }
}

describe('the import-cycle check (npm run deps)', () => {
  it('passes a tree whose imports point one way, and fails once two modules import each other', { timeout: 120_000 }, async () => {
    put('shared/model/thing.ts', 'export const thing = 1;\n');
    put('electron/app/a.ts', "import { b } from './b';\nimport { thing } from '../../shared/model/thing';\nexport const a = () => b + thing;\n");
    put('electron/app/b.ts', 'export const b = 2;\n');
    put('renderer/features/x/Page.tsx', "import { Table } from './Table';\nexport const Page = () => <Table />;\n");
    put('renderer/features/x/Table.tsx', 'export const Table = () => <table />;\n');
    put('packages/simulators/src/types.ts', "export type SimRole = 'admin';\n");
    put('packages/simulators/src/store.ts', "import type { SimRole } from './types';\nexport const role: SimRole = 'admin';\n");
    const clean = await deps();
    expect(clean.out).toMatch(/no dependency violations found/);
    expect(clean.code).toBe(0);

    // A value circle in electron/ and a type-only one in renderer/ (a page's type taken back by its own table).
    put('electron/app/b.ts', "import { a } from './a';\nexport const b = 2;\nexport const again = () => a();\n");
    put('renderer/features/x/Page.tsx', "import { Table } from './Table';\nexport type Refinements = { q: string };\nexport const Page = () => <Table />;\n");
    put('renderer/features/x/Table.tsx', "import type { Refinements } from './Page';\nexport const Table = (_p: Partial<Refinements>) => <table />;\n");
    // And in the simulators' package: its public types taking a type back from a module that uses them.
    put('packages/simulators/src/types.ts', "import type { role } from './store';\nexport type SimRole = 'admin';\nexport type Role = typeof role;\n");
    const circular = await deps();
    expect(circular.code).not.toBe(0);
    expect(circular.out).toMatch(/no-circular: electron\/app\/(a|b)\.ts/);
    expect(circular.out).toMatch(/no-circular: renderer\/features\/x\/(Page|Table)\.tsx/);
    expect(circular.out).toMatch(/no-circular: packages\/simulators\/src\/(types|store)\.ts/);
    expect(circular.out).toMatch(/3 dependency violations/);
  });
});
