/**
 * The Overview page's channels (issue 13), spread into the one contract table (contract.ts). Both
 * read main's stores with SQL aggregates (no list is loaded whole), so they answer offline too.
 */
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
} as const;
