/**
 * Where the Falcon simulator lets a test bend its answers. The simulator knows no fault: it asks
 * these hooks, and without a test's hooks (the demo, `northbound simulate`) every answer is the
 * plain one. The switches live in the testing entry (testing/falcon-faults.ts).
 */
export type InjectedFault = { kind: '429'; retryAfterS: number } | { kind: '5xx'; status: number } | { kind: 'reset' } | { kind: 'malformed' };

export interface FalconFaultHooks {
  /** A token request at the wrong commercial cloud answers 308 (Location + X-Cs-Region) instead of 201. */
  redirectWrongCloud(): boolean;
  /** Before an authenticated data call: every token issued so far expires or is revoked first, or not. */
  dropTokens(): 'expire' | 'revoke' | undefined;
  /** The fault of this data call, if any, and how long it waits first. */
  next(): { fault?: InjectedFault; delayMs: number };
}

/** The plain vendor. */
export const NO_FALCON_FAULTS: FalconFaultHooks = {
  redirectWrongCloud: () => false,
  dropTokens: () => undefined,
  next: () => ({ delayMs: 0 }),
};
