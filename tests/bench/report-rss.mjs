// Loaded with `node --import` into a bench child: at exit it writes the process's peak resident
// set (process.resourceUsage().maxRSS, in kB: the kernel's high-water mark) to NB_BENCH_RSS_FILE.
import { writeFileSync } from 'node:fs';
import process from 'node:process';

const file = process.env.NB_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    writeFileSync(file, JSON.stringify({ maxRssKb: process.resourceUsage().maxRSS }));
  });
}
