#!/usr/bin/env node
// The `northbound` command: runs the TypeScript CLI through tsx, so it works from a fresh clone.
import { register } from 'tsx/esm/api';
process.env.NORTHBOUND_CLI = '1';
process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
register();
await import('../electron/cli.ts');
