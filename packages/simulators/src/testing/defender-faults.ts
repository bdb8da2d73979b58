/**
 * The Defender simulator's fault switches (test-only): a mutable object a test sets at any
 * time, and the hooks (defender/fault-hooks.ts) that read it. Only the testing entry carries them.
 */
import { apiError } from '../defender/api';
import type { DefenderFaultHooks } from '../defender/fault-hooks';
import type { EndpointClass } from '../defender/types';

/** Mutable fault switches; the counted ones decrement as calls consume them. */
export interface DefenderFaults {
  /** Which API calls the counted faults hit ('any' = every API call). */
  scope: EndpointClass | 'any';
  /** The next N calls answer 429 TooManyRequests. */
  throttleNext: number;
  /** Retry-After (vendor seconds) of injected 429s. */
  throttleRetryAfterSec: number;
  /** The next N calls answer `serverErrorStatus`. */
  serverErrorNext: number;
  serverErrorStatus: number;
  /** The next N calls have their socket destroyed before any answer. */
  resetNext: number;
  /** The next N calls answer 200 with a truncated JSON body. */
  malformedNext: number;
  /** Every API answer waits this long (real ms). */
  delayMs: number;
  /** The next N API answers wait `slowMs` (real ms) on top. */
  slowNext: number;
  slowMs: number;
  /** The bulk export refuses with this status (403 Forbidden or 404 NotFound); 0 = serves it. */
  bulkRefused: 0 | 403 | 404;
  /** After N more API calls every token issued so far becomes invalid (401), once. -1 = off. */
  expireTokensAfterCalls: number;
  /** Every API call finds its token revoked (401), also a token fetched just before. */
  rejectAllTokens: boolean;
  /** The first machine of the list has a host name and an OS version this many characters long (issue 20.5); 0 = off. */
  longFields: number;
}

export const defaultFaults = (): DefenderFaults => ({
  scope: 'any',
  throttleNext: 0,
  throttleRetryAfterSec: 1,
  serverErrorNext: 0,
  serverErrorStatus: 503,
  resetNext: 0,
  malformedNext: 0,
  delayMs: 0,
  slowNext: 0,
  slowMs: 0,
  bulkRefused: 0,
  expireTokensAfterCalls: -1,
  rejectAllTokens: false,
  longFields: 0,
});

type Counted = 'throttleNext' | 'serverErrorNext' | 'malformedNext' | 'slowNext' | 'resetNext';

/** The hooks reading `f`; a counted fault that hits the call's class is used up. */
export function defenderFaultHooks(f: DefenderFaults): DefenderFaultHooks {
  const take = (cls: EndpointClass, key: Counted): boolean => {
    if (f[key] <= 0 || (f.scope !== 'any' && f.scope !== cls)) return false;
    f[key] -= 1;
    return true;
  };
  return {
    beforeCall(cls) {
      if (take(cls, 'resetNext')) return 'reset';
      let revoke = f.rejectAllTokens;
      if (f.expireTokensAfterCalls === 0) {
        f.expireTokensAfterCalls = -1;
        revoke = true;
      } else if (f.expireTokensAfterCalls > 0) f.expireTokensAfterCalls -= 1;
      return revoke ? 'revoke' : undefined;
    },
    intercept(cls) {
      if (take(cls, 'throttleNext')) {
        return apiError(429, 'TooManyRequests', `Rate limit is exceeded. Try again in ${f.throttleRetryAfterSec} seconds.`, { 'retry-after': String(f.throttleRetryAfterSec) });
      }
      if (take(cls, 'serverErrorNext')) return apiError(f.serverErrorStatus, 'InternalServerError', 'An error occurred while processing the request. Retry the operation.');
      if (cls === 'bulk' && f.bulkRefused === 403) return apiError(403, 'Forbidden', 'The tenant is not licensed for the software vulnerabilities export (Defender Vulnerability Management).');
      if (cls === 'bulk' && f.bulkRefused === 404) return apiError(404, 'NotFound', 'The requested resource was not found.');
      return undefined;
    },
    shape(cls, query, reply) {
      let out = reply;
      // The first machine of the list (its first page) with a host name and an OS version that long.
      const long = f.longFields;
      const body = out.body as { value?: unknown[] } | undefined;
      if (cls === 'machines' && out.status === 200 && long > 0 && Number(query.get('$skip') ?? 0) === 0 && body?.value?.[0]) {
        const value = [...body.value];
        value[0] = { ...(value[0] as object), computerDnsName: `host-0.${'h'.repeat(long)}`, osVersion: 'v'.repeat(long) };
        out = { ...out, body: { ...body, value } };
      }
      if (out.status === 200 && take(cls, 'malformedNext')) {
        const text = JSON.stringify(out.body);
        return { ...out, body: text.slice(0, Math.max(1, Math.floor(text.length / 2))) };
      }
      return out;
    },
    delayMs: (cls) => f.delayMs + (take(cls, 'slowNext') ? f.slowMs : 0),
  };
}
