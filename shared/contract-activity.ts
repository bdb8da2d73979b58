/** The activity log's channel and event (issue 22.2), spread into the one contract table (contract.ts). */
import { z } from 'zod';
import { ActivityEntry, ActivityPage, ActivityQuery } from './model/activity';

export const activityChannels = {
  'activity.list': {
    request: ActivityQuery,
    response: ActivityPage,
    description: 'The operator writes the console made (who, when, what, on which object, the outcome), newest first, with the total the filter matches.',
  },
} as const;

export const activityEvents = {
  /** A write was recorded. */
  'activity.changed': z.object({ entry: ActivityEntry }),
} as const;
