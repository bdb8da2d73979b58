/**
 * One segment of a request path built from a name the operator (or a window) gave: a device
 * name, a task ID, an OAuth client ID, a machine ID. `encodeURIComponent` leaves `.` and `..` as
 * they are, and URL normalisation would then leave the resource (`/device/..` is the device
 * list); it throws on a lone UTF-16 surrogate. Both, and an empty name, are refused as invalid
 * input (see shared/model/names.ts for the same rule in the contract).
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { isSafePathSegment } from '../../shared/model/names';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const refused = (what: string, message: string) =>
  new AppError(ErrorCodes.validation, message, `Enter the ${what} as it is known on the server.`, { details: { issues: [{ path: what, message }] } });

export function pathSegment(name: string, what = 'name'): string {
  if (typeof name !== 'string' || !isSafePathSegment(name)) throw refused(what, `The ${what} cannot be empty, "." or "..".`);
  if (LONE_SURROGATE.test(name)) throw refused(what, `The ${what} "${name.slice(0, 64).replace(new RegExp(LONE_SURROGATE, 'g'), '\uFFFD')}" cannot be used in an address.`);
  return encodeURIComponent(name);
}
