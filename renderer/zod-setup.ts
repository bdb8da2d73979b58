/**
 * Imported first by main.tsx, before any schema exists: zod must never try `new Function`
 * under our CSP (no 'unsafe-eval'), not even as a probe, or every start logs a violation.
 */
import { z } from 'zod';

z.config({ jitless: true });
