/**
 * One segment of a request path built from a name the operator (or a window) gave: a device
 * name, a task ID, an OAuth client ID. `encodeURIComponent` leaves `.` and `..` as they are, and
 * URL normalisation would then leave the resource (`/device/..` is the device list); it throws on
 * a lone UTF-16 surrogate. Both are refused as invalid input instead.
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function pathSegment(value: string, what: string): string {
  if (value === '.' || value === '..' || LONE_SURROGATE.test(value)) {
    throw new AppError(ErrorCodes.validation, `The ${what} "${value.slice(0, 64).replace(LONE_SURROGATE, '\uFFFD')}" cannot be used in an address.`, `Check the ${what}.`, {
      details: { issues: [{ path: what, message: 'Not a usable name.' }] },
    });
  }
  return encodeURIComponent(value);
}
