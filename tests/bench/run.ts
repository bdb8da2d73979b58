/**
 * `npm run bench`: performance numbers measured side by side in one run. Each part is bounded in
 * size and time and prints one line; nothing here is a pass/fail test.
 */
import { benchStore } from './store.bench-part';

const fmt = (n: number, d = 0) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function main(): Promise<void> {
  const only = process.argv.slice(2);
  const want = (name: string) => only.length === 0 || only.includes(name);
  console.log(`Northbound benchmarks — node ${process.version}, ${new Date().toISOString()}`);

  if (want('store')) {
    const s = await benchStore(100_000);
    console.log(`store: wrote a cycle of ${fmt(s.hosts)} scores in ${fmt(s.ms)} ms (${fmt(s.rowsPerSecond)} rows/s); 5,000 hosts one transaction ${fmt(s.batchMsFor5k, 1)} ms vs one commit per host ${fmt(s.perRowMsFor5k, 1)} ms = ${fmt(s.ratio, 1)}x`);
  }
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
