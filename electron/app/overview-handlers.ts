/** The overview.* channels of the contract (issue 13); the work is in overview.ts. */
import type { OverviewService } from './overview';
import type { Handlers } from './router';

type OverviewHandlers = Pick<Handlers, 'overview.get' | 'overview.badges'>;

export function createOverviewHandlers(overview: OverviewService): OverviewHandlers {
  return {
    'overview.get': async ({ profileId }) => overview.get(profileId),
    'overview.badges': async ({ profileId }) => overview.badges(profileId),
  };
}
