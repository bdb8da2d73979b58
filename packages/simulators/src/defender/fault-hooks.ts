/**
 * Where the Defender simulator lets a test bend its answers. The simulator knows no fault: it
 * asks these hooks, and without a test's hooks (the demo, `northbound simulate`) every answer is
 * the plain one. The switches live in the testing entry (testing/defender-faults.ts).
 */
import type { Reply } from '../http';
import type { EndpointClass } from './types';

export interface DefenderFaultHooks {
  /**
   * Before an API call is authorized: 'reset' destroys its socket without an answer, 'revoke'
   * makes every token issued so far invalid first, undefined goes on as usual.
   */
  beforeCall(cls: EndpointClass): 'reset' | 'revoke' | undefined;
  /** After the rate limit of an authorized call: an answer instead of the data, or undefined. */
  intercept(cls: EndpointClass): Reply | undefined;
  /** The data answer as it is sent (`query`: the call's query). */
  shape(cls: EndpointClass, query: URLSearchParams, reply: Reply): Reply;
  /** Real milliseconds the answer waits before it is sent. */
  delayMs(cls: EndpointClass): number;
}

/** The plain vendor. */
export const NO_DEFENDER_FAULTS: DefenderFaultHooks = {
  beforeCall: () => undefined,
  intercept: () => undefined,
  shape: (_cls, _query, reply) => reply,
  delayMs: () => 0,
};
