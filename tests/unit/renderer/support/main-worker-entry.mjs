// Loads main-worker.ts in the worker thread through tsx (Node 20 does not pass --import loaders to workers).
import { workerData } from 'node:worker_threads';
import { tsImport } from 'tsx/esm/api';

await tsImport(workerData.file, import.meta.url);
