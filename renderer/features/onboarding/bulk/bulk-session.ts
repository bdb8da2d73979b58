/**
 * The bulk onboarding dialog's work per connection (the file, its checked rows, the options, the
 * job and the results of earlier runs), kept outside the dialog: closing it while a job runs and
 * opening it again shows the same job with its results, not an empty form.
 */
import { create } from 'zustand';
import type { BulkRowResult } from '../../../../shared/model/inventory';
import type { BulkOptions } from './BulkPrepare';
import type { ParsedCsv } from './csv';

export interface BulkSession {
  file?: File;
  parsed?: ParsedCsv;
  options: BulkOptions;
  jobId?: string;
  /** Results of earlier runs of this file, under the current run's (retry of failed rows). */
  earlier: readonly BulkRowResult[];
}

export const NEW_BULK_SESSION: Readonly<BulkSession> = { options: { dryRun: false, deploy: false, replace: false, concurrency: 4 }, earlier: [] };

interface BulkSessions {
  byProfile: Record<string, BulkSession>;
  update(profileId: string, patch: Partial<BulkSession>): void;
  clear(profileId: string): void;
}

export const useBulkSessions = create<BulkSessions>()((set) => ({
  byProfile: {},
  update: (profileId, patch) => set((s) => ({ byProfile: { ...s.byProfile, [profileId]: { ...(s.byProfile[profileId] ?? NEW_BULK_SESSION), ...patch } } })),
  clear: (profileId) =>
    set((s) => {
      const { [profileId]: _dropped, ...rest } = s.byProfile;
      return { byProfile: rest };
    }),
}));

/** The session of one connection and its setters. */
export function useBulkSession(profileId: string): [BulkSession, (patch: Partial<BulkSession>) => void, () => void] {
  const session = useBulkSessions((s) => s.byProfile[profileId]) ?? NEW_BULK_SESSION;
  const update = useBulkSessions((s) => s.update);
  const clear = useBulkSessions((s) => s.clear);
  return [session, (patch) => update(profileId, patch), () => clear(profileId)];
}
