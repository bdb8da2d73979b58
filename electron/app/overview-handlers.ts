/** The overview.* channels of the contract (issue 13); the work is in overview.ts. */
import type { FleetHealthService } from './fleet-health';
import type { OverviewService } from './overview';
import type { Handlers } from './router';

type OverviewHandlers = Pick<Handlers, 'overview.get' | 'overview.badges' | 'overview.fleet'>;

/** What these channels need: the Overview's aggregates (built once by services.ts). */
export interface OverviewHandlerDeps {
  overview: Pick<OverviewService, 'get' | 'badges'>;
  /** A joined console's Fleet card (C-89). */
  fleet: Pick<FleetHealthService, 'get'>;
}

export function createOverviewHandlers({ overview, fleet }: OverviewHandlerDeps): OverviewHandlers {
  return {
    'overview.get': async ({ profileId }) => overview.get(profileId),
    'overview.badges': async ({ profileId }) => overview.badges(profileId),
    'overview.fleet': async () => fleet.get(),
  };
}
