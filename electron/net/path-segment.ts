/** One URL path segment from a name: refused when empty, `.` or `..` (see shared/model/names.ts). */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { isSafePathSegment } from '../../shared/model/names';

export function pathSegment(name: string, what = 'name'): string {
  if (typeof name !== 'string' || !isSafePathSegment(name)) {
    throw new AppError(ErrorCodes.validation, `The ${what} cannot be empty, "." or "..".`, `Enter the ${what} as it is known on the server.`, {
      details: { issues: [{ path: what, message: `The ${what} cannot be empty, "." or "..".` }] },
    });
  }
  return encodeURIComponent(name);
}
