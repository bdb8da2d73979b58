/**
 * Installs the project's error map (C-23) in this process's zod. Imported for its effect by
 * every shared module that defines schemas, so whoever validates with them (main, the window,
 * the CLI, the simulators, the tests) gets the same sentences; a schema's own messages still
 * come first. `z.config` merges, so the window's `jitless` setting stays.
 */
import { z } from 'zod';
import { operatorMessage } from './error-map';

z.config({ customError: operatorMessage });
