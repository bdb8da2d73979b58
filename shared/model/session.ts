import { z } from 'zod';
import { AppErrorShape } from './errors';
import { AuthMode } from './profile';

export const SessionState = z.enum(['signed-out', 'signing-in', 'signed-in', 'sign-in-required', 'error']);
export type SessionState = z.infer<typeof SessionState>;

export const SessionStatus = z.object({
  profileId: z.string(),
  state: SessionState,
  authMode: AuthMode,
  username: z.string().optional(),
  /** ISO time the access token expires; null when the node said it never expires; absent for basic auth. */
  accessTokenExpiresAt: z.string().nullable().optional(),
  refreshTokenExpiresAt: z.string().nullable().optional(),
  signedInAt: z.string().optional(),
  /** The last error that changed the state (sign-in failure, refresh failure). */
  error: AppErrorShape.optional(),
});
export type SessionStatus = z.infer<typeof SessionStatus>;
