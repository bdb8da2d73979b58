// Starts a worker entry from the TypeScript sources (tsx, vitest), which Node alone cannot load:
// tsx's loader for this thread, then the entry named by argv. The Electron bundle runs the entry built as .cjs instead (sql-worker.ts).
import { register } from 'tsx/esm/api';
import process from 'node:process';
import { pathToFileURL } from 'node:url';

register();
await import(pathToFileURL(process.argv[2]).href);
