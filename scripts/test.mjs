#!/usr/bin/env node
/**
 * `npm test`: the whole suite in the least time on two cores. The unit and integration files
 * (vitest) start at once; lint, typecheck, the import graph's check, the renderer's build and the
 * packaged app's smoke test (which needs that build) run one after another beside them, in the time vitest's workers wait on sockets, brokers and child
 * processes; then the end-to-end tests (Playwright). Each check's output is printed whole when it
 * ends, vitest's as it goes. The run fails if any part fails, and says which.
 *
 *   NB_TEST_SERIAL=1 npm test   one part after the other, as `npm run lint`, `typecheck`, `deps`, `test:unit`, `test:packaging`, `test:e2e`
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';

// Each part is the package.json script of that name (one definition of each command), through npm
// on every platform; the end-to-end part runs Playwright alone, the renderer being built by then.
const windows = process.platform === 'win32';
const npm = (args) => ({ cmd: windows ? 'npm.cmd' : 'npm', args });
const script = (name) => npm(['run', '--silent', name]);
const PARTS = {
  lint: script('lint'),
  typecheck: script('typecheck'),
  deps: script('deps'),
  'build:renderer': script('build:renderer'),
  'test:unit': script('test:unit'),
  'test:packaging': script('test:packaging'),
  'test:e2e': npm(['exec', '--no', '--', 'playwright', 'test']),
};

const seconds = (ms) => `${(ms / 1000).toFixed(0)} s`;

/** Runs one part; `stream` prints its output as it comes, otherwise all of it once it ends. */
function run(name, { stream }) {
  const { cmd, args } = PARTS[name];
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { stdio: stream ? 'inherit' : ['ignore', 'pipe', 'pipe'], shell: windows });
    const out = [];
    child.stdout?.on('data', (d) => out.push(d));
    child.stderr?.on('data', (d) => out.push(d));
    child.on('error', (e) => out.push(Buffer.from(`${name} could not start: ${e.message}\n`)));
    child.on('close', (code, signal) => {
      const ok = code === 0;
      const took = seconds(performance.now() - started);
      if (!stream) {
        const text = Buffer.concat(out).toString();
        process.stdout.write(`\n── ${name}: ${ok ? 'passed' : 'FAILED'} (${took}) ${'─'.repeat(20)}\n${text}${text.endsWith('\n') || text === '' ? '' : '\n'}`);
      } else {
        process.stdout.write(`\n── ${name}: ${ok ? 'passed' : 'FAILED'} (${took})\n`);
      }
      resolve({ name, ok, why: ok ? '' : signal ? `killed by ${signal}` : `exit code ${code}` });
    });
  });
}

async function main() {
  const started = performance.now();
  const results = [];
  if (process.env.NB_TEST_SERIAL === '1') {
    for (const name of ['lint', 'typecheck', 'deps', 'test:unit', 'build:renderer', 'test:packaging', 'test:e2e']) {
      const r = await run(name, { stream: true });
      results.push(r);
      if (!r.ok) break;
    }
  } else {
    const checks = (async () => {
      for (const name of ['lint', 'typecheck', 'deps', 'build:renderer', 'test:packaging']) results.push(await run(name, { stream: false }));
    })();
    const unit = run('test:unit', { stream: true }).then((r) => results.push(r));
    await Promise.all([checks, unit]);
    // The end-to-end tests need the renderer's build, and start once the rest passed. Started beside
    // vitest they gained nothing (both keep the two cores busy) and made its timing tests flaky.
    if (results.every((r) => r.ok)) results.push(await run('test:e2e', { stream: true }));
  }
  const failed = results.filter((r) => !r.ok);
  process.stdout.write(`\nnpm test: ${results.map((r) => `${r.name} ${r.ok ? 'passed' : 'FAILED'}`).join(', ')}; ${seconds(performance.now() - started)} in all.\n`);
  if (failed.length > 0) {
    process.stdout.write(`Failed: ${failed.map((r) => `${r.name} (${r.why})`).join(', ')}. Run one alone with npm run ${failed[0].name}.\n`);
    process.exitCode = 1;
  }
}

await main();
