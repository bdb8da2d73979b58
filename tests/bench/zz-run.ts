import { benchFalcon } from './falcon.bench-part';
let peak = 0;
const timer = setInterval(() => { peak = Math.max(peak, process.memoryUsage().rss); }, 100);
const n = Number(process.argv[2] ?? 100000);
const r = await benchFalcon(n);
clearInterval(timer);
console.log(r, 'peak rss MiB', Math.round(peak / 1048576));
