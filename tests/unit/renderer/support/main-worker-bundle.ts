/**
 * main-worker.ts as one ES module, bundled by esbuild (the project's own code in; every package
 * external, loaded by Node as usual). Loading it in a worker takes well under half the time of
 * loading the TypeScript sources module by module through tsx (about 5 s a file on 2 cores), and
 * every renderer test file that starts a main used to pay that. vitest's globalSetup builds it
 * (esbuild does not run in a jsdom test file). The bundle is kept in .cache/,
 * named after the sources it was built from (their paths, sizes and modification times), so a
 * run builds it at most once and a changed source gets a new one. Written under a temporary name
 * and renamed, so files that build it side by side never read a half-written bundle.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { buildSync } from 'esbuild';
// @ts-expect-error -- a plain .mjs script without type declarations
import { WORKER_ENTRIES, mainTarget } from '../../../../scripts/build-electron.mjs';

const SOURCES = ['electron', 'shared', 'packages/simulators/src', 'tests/unit/renderer/support'];

function fingerprint(root: string): string {
  const hash = createHash('sha256');
  const walk = (dir: string): void => {
    for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|tsx|mts|cts|js|mjs|cjs|json)$/.test(e.name)) {
        const s = statSync(p);
        hash.update(`${path.relative(root, p)}\0${s.size}\0${s.mtimeMs}\n`);
      }
    }
  };
  for (const dir of SOURCES) walk(path.join(root, dir));
  return hash.digest('hex').slice(0, 16);
}

/** The bundle's path, built first if the sources changed since the last one. */
export function mainWorkerBundle(root: string): string {
  // Two levels below the root, as electron/app/ is: main reads ../../package.json beside its module.
  const dir = path.join(root, '.cache', 'main-worker');
  const file = path.join(dir, `main-worker-${fingerprint(root)}.mjs`);
  const workers = Object.keys(WORKER_ENTRIES as Record<string, string>).map((name) => path.join(dir, `${name}.cjs`));
  if (existsSync(file) && workers.every((w) => existsSync(w))) return file;
  mkdirSync(dir, { recursive: true });
  // The workspace's own packages (the simulators: TypeScript sources) go into the bundle; every
  // package from npm stays external.
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const external = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies })
    .filter((name) => !name.startsWith('@northbound/'))
    .flatMap((name) => [name, `${name}/*`]);
  const tmp = `${file}.${process.pid}.tmp`;
  buildSync({
    absWorkingDir: root,
    entryPoints: [path.join(root, 'tests/unit/renderer/support/main-worker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: ['node20'],
    external,
    outfile: tmp,
    logLevel: 'warning',
  });
  // main's SQL worker threads, beside the bundle as in dist-electron/ (sql-worker.ts workerEntry
  // looks for <name>.cjs next to the module that runs).
  buildSync({ ...mainTarget, absWorkingDir: root, entryPoints: WORKER_ENTRIES, outdir: dir, metafile: false, sourcemap: false } as Parameters<typeof buildSync>[0]);
  renameSync(tmp, file);
  return file;
}

/** vitest globalSetup: builds the bundle (in Node, before the test workers start) and names it for them. */
export default function setup(): void {
  process.env.NB_MAIN_WORKER_BUNDLE = mainWorkerBundle(path.resolve(import.meta.dirname, '../../../..'));
}
