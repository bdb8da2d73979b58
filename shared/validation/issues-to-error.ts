/**
 * A refused request: every issue with its field (the window puts each under its input), and a
 * summary that names the first field in words (shared/validation, C-23). Used by the router for
 * every channel and by the services that check a document of their own (edr/registry.ts).
 */
import type { z } from 'zod';
import { ErrorCodes, type AppErrorShape } from '../model/errors';
import { issueText } from './error-map';

export function issuesToError(issues: z.core.$ZodIssue[], what = 'request'): AppErrorShape {
  const fieldIssues = issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  const first = fieldIssues[0];
  const more = fieldIssues.length > 1 ? ` (and ${fieldIssues.length - 1} more)` : '';
  return {
    code: ErrorCodes.validation,
    message: first ? `The ${what} is not valid: ${issueText(first)}${more}` : `The ${what} is not valid.`,
    hint: 'Correct the highlighted fields and try again.',
    details: { issues: fieldIssues },
  };
}
