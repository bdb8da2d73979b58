/**
 * A `request.invalid` from main carries `details.issues` ({ path, message }). Put them under the
 * fields they name so the operator sees them where they typed.
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';

export function serverIssues(error: unknown, prefix = ''): { path: string; message: string }[] {
  if (!(error instanceof AppError) || error.code !== ErrorCodes.validation) return [];
  const issues = error.details?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.flatMap((i: unknown) => {
    if (!i || typeof i !== 'object') return [];
    const { path, message } = i as { path?: unknown; message?: unknown };
    if (typeof path !== 'string' || typeof message !== 'string' || !path) return [];
    if (prefix && !path.startsWith(prefix)) return [];
    return [{ path: path.slice(prefix.length), message }];
  });
}
