/**
 * The Overview page's channels (issue 13), spread into the one contract table (contract.ts). Both
 * read main's stores with SQL aggregates (no list is loaded whole), so they answer offline too.
 */
import { z } from 'zod';
import { FleetHealth } from './model/fleet-health';
import { Overview, OverviewBadges, OverviewRequest } from './model/overview';

export const overviewChannels = {
  'overview.get': {
    request: OverviewRequest,
    response: Overview,
    description: 'The whole Overview page: alarms by severity, the risk bands and their trend, hosts that entered High Risk, devices by deployment status and each connector’s health, each with its “as of”.',
  },
  'overview.badges': {
    request: OverviewRequest,
    response: OverviewBadges,
    description: 'The sidebar’s badges: unacknowledged critical alarms of the connection, High Risk hosts of every connector (null when not known).',
  },
  'overview.fleet': {
    request: z.object({}).strict(),
    response: FleetHealth,
    description: 'A joined console’s Fleet card (C-89): workers alive, connectors without a worker, lapsed leases, alarm collectors and their lag as of the last read of the team’s database, and the database’s and the broker’s reachability as of their check.',
  },
} as const;
