/**
 * The desktop app's updates (issue 23.7) as the window sees them. A release build names its feed
 * (electron-builder's `publish`: GitHub releases or a generic HTTPS server, written into the app as
 * app-update.yml); a build without one has updates off. Nothing is downloaded or installed without
 * the operator asking.
 */
import { z } from 'zod';

export const UpdateState = z.enum(['unavailable', 'off', 'idle', 'checking', 'current', 'available', 'downloading', 'downloaded', 'error']);
export type UpdateState = z.infer<typeof UpdateState>;

export const UpdateStatus = z.object({
  state: UpdateState,
  /** The running version. */
  version: z.string(),
  /** Where updates come from ("GitHub releases of owner/repo", "https://…"), null when off. */
  feed: z.string().nullable(),
  /** The version offered, once a check found one. */
  available: z.string().nullable(),
  /** Download progress in percent, while downloading. */
  percent: z.number().min(0).max(100).nullable(),
  /** Why updates are off, or what went wrong. */
  message: z.string().nullable(),
  checkedAt: z.string().nullable(),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;
