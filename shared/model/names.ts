/**
 * Names that become one segment of a URL path (a device name, a task or client ID). URL parsing
 * turns a `.` or `..` segment into a move up the path even after `encodeURIComponent`, so
 * `devices.get {deviceName: ".."}` would reach the node's device list. Those, and empty names,
 * are refused wherever a name becomes a path segment: in the contract and again in main.
 */
import { z } from 'zod';
import '../validation/install';

export const isSafePathSegment = (s: string): boolean => s !== '' && s !== '.' && s !== '..';

/** A name that main puts into a URL path: not empty, not `.` or `..`. */
export const PathName = (what: string, max = 255) =>
  z
    .string({ error: `Enter the ${what}.` })
    .min(1, `Enter the ${what}.`)
    .max(max, `The ${what} is longer than ${max} characters.`)
    .refine(isSafePathSegment, { message: `The ${what} cannot be "." or "..".` });
