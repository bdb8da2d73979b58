/** The alarms.* channels of the contract (issue 12); the work is in electron/alarms/service.ts. */
import type { AlarmService } from '../alarms/service';
import type { ProfileRepository } from './profiles';
import type { Handlers } from './router';

type AlarmHandlers = Pick<Handlers, 'alarms.list' | 'alarms.get' | 'alarms.acknowledge' | 'alarms.clear' | 'alarms.summary' | 'alarms.rate' | 'alarms.status'>;

/** What these channels need: the alarm service's reads and handling, and which connections exist. */
export interface AlarmHandlerDeps {
  alarms: Pick<AlarmService, 'list' | 'get' | 'acknowledge' | 'clear' | 'summary' | 'rate' | 'status'>;
  profiles: Pick<ProfileRepository, 'get'>;
}

export function createAlarmHandlers({ alarms, profiles }: AlarmHandlerDeps): AlarmHandlers {
  // Every channel names a connection: an unknown one is refused (not_found) before the store is read.
  const known = (profileId: string) => profiles.get(profileId).id;
  return {
    'alarms.list': async ({ profileId, filter, offset, limit }) => alarms.list(known(profileId), filter, offset, limit),
    'alarms.get': async ({ profileId, id }) => alarms.get(known(profileId), id),
    'alarms.acknowledge': async ({ profileId, ids, state, note }) => alarms.acknowledge(known(profileId), ids, state, note),
    'alarms.clear': async ({ profileId, ids, note }) => alarms.clear(known(profileId), ids, note),
    'alarms.summary': async ({ profileId }) => alarms.summary(known(profileId)),
    'alarms.rate': async ({ profileId, minutes }) => alarms.rate(known(profileId), minutes),
    'alarms.status': async ({ profileId }) => alarms.status(known(profileId)),
  };
}
