import { existsSync } from 'node:fs';
import path from 'node:path';

/** The end-to-end tests serve the built renderer; `npm run test:e2e` builds it first. */
export default function globalSetup(): void {
  const index = path.resolve('dist/renderer/index.html');
  if (!existsSync(index)) throw new Error('dist/renderer is missing: run `npm run build:renderer` before the end-to-end tests.');
}
