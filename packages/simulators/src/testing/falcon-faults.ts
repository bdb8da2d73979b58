/**
 * The Falcon simulator's fault switches (test-only): a mutable object a test sets at any time,
 * and the hooks (falcon/fault-hooks.ts) that read it. Only the testing entry carries them.
 */
import type { FalconFaultHooks, InjectedFault } from '../falcon/fault-hooks';

/** Fault switches; mutable at any time. Counters are used up by data calls (never by /oauth2/token). */
export interface FalconSimFaults {
  /** The next N data calls answer 429, X-RateLimit-RetryAfter = now + retryAfterS (epoch seconds). */
  burst429: number;
  /** Seconds ahead for X-RateLimit-RetryAfter of injected 429s; default 1. */
  retryAfterS: number;
  /** The next N data calls answer 500, 502 or 503 in turn. */
  serverErrors: number;
  /** The next N data calls lose their connection without an answer. */
  resets: number;
  /** The next N data calls answer 200 with truncated JSON. */
  malformed: number;
  /** The next N data calls are delayed by `slowMs`. */
  slowCalls: number;
  slowMs: number;
  /** After N more authenticated data calls every token issued so far expires (mid-cycle expiry). */
  expireTokensAfterCalls: number | null;
  /**
   * After N more authenticated data calls every token issued so far is revoked (as by the vendor,
   * or by an administrator resetting the API client): it is gone, not merely expired. Tokens
   * issued afterwards work.
   */
  revokeTokensAfterCalls: number | null;
  /** When > 1, the fault counters above apply only to every Nth data call, spreading them over a cycle. */
  every: number;
  /** A token request at the wrong commercial cloud answers 308 (Location + X-Cs-Region) instead of 201. */
  wrongRegionAs308: boolean;
}

export const defaultFalconFaults = (): FalconSimFaults => ({
  burst429: 0,
  retryAfterS: 1,
  serverErrors: 0,
  resets: 0,
  malformed: 0,
  slowCalls: 0,
  slowMs: 0,
  expireTokensAfterCalls: null,
  revokeTokensAfterCalls: null,
  every: 1,
  wrongRegionAs308: false,
});

/** The hooks reading `f`: picks (and uses up) the fault of each data call; `slow` is separate and returned as a delay. */
export function falconFaultHooks(f: FalconSimFaults): FalconFaultHooks {
  let calls = 0;
  let rotation = 0;
  return {
    redirectWrongCloud: () => f.wrongRegionAs308,
    dropTokens() {
      if (f.expireTokensAfterCalls !== null) {
        f.expireTokensAfterCalls -= 1;
        if (f.expireTokensAfterCalls <= 0) {
          f.expireTokensAfterCalls = null;
          return 'expire';
        }
      }
      if (f.revokeTokensAfterCalls !== null) {
        f.revokeTokensAfterCalls -= 1;
        if (f.revokeTokensAfterCalls <= 0) {
          f.revokeTokensAfterCalls = null;
          return 'revoke';
        }
      }
      return undefined;
    },
    next(): { fault?: InjectedFault; delayMs: number } {
      calls += 1;
      const selected = f.every <= 1 || calls % f.every === 0;
      if (!selected) return { delayMs: 0 };
      let delayMs = 0;
      if (f.slowCalls > 0) {
        f.slowCalls -= 1;
        delayMs = f.slowMs;
      }
      if (f.resets > 0) {
        f.resets -= 1;
        return { fault: { kind: 'reset' }, delayMs };
      }
      if (f.serverErrors > 0) {
        f.serverErrors -= 1;
        const status = [500, 502, 503][rotation++ % 3] ?? 500;
        return { fault: { kind: '5xx', status }, delayMs };
      }
      if (f.malformed > 0) {
        f.malformed -= 1;
        return { fault: { kind: 'malformed' }, delayMs };
      }
      if (f.burst429 > 0) {
        f.burst429 -= 1;
        return { fault: { kind: '429', retryAfterS: f.retryAfterS }, delayMs };
      }
      return { delayMs };
    },
  };
}
