/** The inventory.*, devices.*, tasks.get, onboarding.* and syslog.* channels of the contract. */
import type { InventoryService } from '../inventory/service';
import type { BulkJobs } from '../inventory/bulk';
import type { ProfileRepository } from './profiles';
import type { Handlers } from './router';

type InventoryHandlers = Pick<
  Handlers,
  | 'inventory.devices'
  | 'inventory.window'
  | 'inventory.facets'
  | 'inventory.organizations'
  | 'inventory.refresh'
  | 'devices.get'
  | 'devices.nextSiteId'
  | 'devices.groups'
  | 'devices.onboard'
  | 'devices.deploy'
  | 'tasks.get'
  | 'tasks.lastOf'
  | 'onboarding.start'
  | 'onboarding.cancel'
  | 'onboarding.get'
  | 'syslog.list'
  | 'syslog.create'
>;

/** What these channels need: the inventory, the bulk onboarding jobs, and which connections exist. */
export interface InventoryHandlerDeps {
  inventory: Pick<
    InventoryService,
    'devices' | 'deviceWindow' | 'deviceFacets' | 'organizations' | 'refresh' | 'getDevice' | 'nextSiteId' | 'deviceGroups' | 'onboard' | 'deploy' | 'task' | 'lastTaskOf' | 'syslogList' | 'syslogCreate'
  >;
  bulk: Pick<BulkJobs, 'start' | 'cancel' | 'get'>;
  profiles: Pick<ProfileRepository, 'get'>;
}

export function createInventoryHandlers({ inventory, bulk, profiles }: InventoryHandlerDeps): InventoryHandlers {
  // Stored lists are read offline, but only for a profile that exists (unknown → not_found).
  const known = (profileId: string) => profiles.get(profileId).id;
  return {
    'inventory.devices': async ({ profileId }) => inventory.devices(known(profileId)),
    'inventory.window': async (q) => inventory.deviceWindow({ ...q, profileId: known(q.profileId) }),
    'inventory.facets': async ({ profileId }) => inventory.deviceFacets(known(profileId)),
    'inventory.organizations': async ({ profileId }) => inventory.organizations(known(profileId)),
    'inventory.refresh': async ({ profileId, what }) => inventory.refresh(profileId, what),
    'devices.get': async ({ profileId, deviceName }) => inventory.getDevice(profileId, deviceName),
    'devices.nextSiteId': async ({ profileId }) => inventory.nextSiteId(profileId),
    'devices.groups': async ({ profileId, orgName }) => inventory.deviceGroups(known(profileId), orgName),
    'devices.onboard': async ({ profileId, device }) => inventory.onboard(profileId, device),
    'devices.deploy': async ({ profileId, deviceName }) => inventory.deploy(profileId, deviceName),
    'tasks.get': async ({ profileId, taskId }) => inventory.task(known(profileId), taskId),
    'tasks.lastOf': async ({ profileId, deviceName }) => inventory.lastTaskOf(known(profileId), deviceName),
    'onboarding.start': async (req) => {
      known(req.profileId);
      return bulk.start(req);
    },
    'onboarding.cancel': async ({ jobId }) => bulk.cancel(jobId),
    'onboarding.get': async ({ jobId }) => bulk.get(jobId),
    'syslog.list': async ({ profileId }) => inventory.syslogList(profileId),
    'syslog.create': async ({ profileId, server }) => inventory.syslogCreate(profileId, server),
  };
}
