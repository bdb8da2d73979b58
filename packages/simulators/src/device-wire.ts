/**
 * How the simulated node writes devices and organizations on the wire: the shapes real nodes
 * answer (issue 8; recorded shapes in tests/fixtures/mgmt-node, their sources in PROVENANCE.md),
 * with the spec's renaming (`/vnms` → `/mgmt`, `versanms.` → `mgmt.`). The simulator's own state
 * (SimDevice, SimOrganization, deployment tasks) stays as it was; only these views changed.
 */
import { deploymentStatus, type DeviceEntry } from './devices';
import type { SimOrganization } from './inventory-seed';
import type { SimDeploymentStatus } from './views';

export const DEVICE_LIST_KEY = 'mgmt.sdwan-device-list';

/**
 * `workflowStatus` of a device. Only "Deployed" is recorded from a real node (all 19 devices of the
 * recorded list); the other three strings are ASSUMPTIONS in the same capitalised style:
 * SAVED → "Saved", DEPLOYING (task PENDING or IN_PROGRESS) → "In Progress", FAILED → "Failed".
 */
export const WORKFLOW_STATUS: Record<SimDeploymentStatus, string> = {
  SAVED: 'Saved',
  DEPLOYING: 'In Progress',
  DEPLOYED: 'Deployed',
  FAILED: 'Failed',
};

/** `yyyy-MM-dd'T'HH:mm:ss.SSS+0000`, the recorded `lastModifiedTime` format (UTC, no colon, not Z). */
export const modifiedTime = (ms: number): string => new Date(ms).toISOString().replace('Z', '+0000');

/** A record of `GET /mgmt/sdwan/workflow/devices`: five string keys, siteId a string. */
export function deviceListRecord(entry: DeviceEntry, now: number): Record<string, string> {
  return {
    deviceName: entry.record.deviceName,
    lastModifiedBy: entry.modifiedBy,
    lastModifiedTime: modifiedTime(entry.modifiedAt),
    siteId: entry.record.siteId,
    workflowStatus: WORKFLOW_STATUS[deploymentStatus(entry, now)],
  };
}

/**
 * The object under `mgmt.sdwan-device-workflow` of the single GET and the PUT answer (no recorded
 * body exists; reconstructed, see PROVENANCE.md): siteId and the coordinates are numbers, address
 * parts the simulator does not keep are empty strings, and a post-staging template binding with
 * the site ID. Deployment status is not part of it (real nodes show it in the list only).
 */
export function deviceWorkflowRecord(entry: DeviceEntry): Record<string, unknown> {
  const r = entry.record;
  const template = `${r.deviceGroup}-Template`;
  const site = Number(r.siteId);
  return {
    deviceName: r.deviceName,
    siteId: site,
    orgName: r.orgName,
    serialNumber: r.serialNumber,
    deviceGroup: r.deviceGroup,
    licensePeriod: 1,
    deploymentType: 'physical',
    locationInfo: {
      country: r.locationInfo.country,
      state: '',
      city: '',
      address1: '',
      address2: '',
      zip: '',
      latitude: Number(r.locationInfo.latitude),
      longitude: Number(r.locationInfo.longitude),
    },
    postStagingTemplateInfo: {
      templateName: template,
      templateData: {
        'device-template-variable': {
          template,
          'variable-binding': {
            attrs: [
              { name: '{$v_Site_Id__siteSiteID}', value: r.siteId, isAutogeneratable: true },
              { name: '{$v_LAN_IPv4__staticaddress}', value: `10.${Math.floor(site / 256) % 256}.${site % 256}.1/24`, isAutogeneratable: false },
            ],
          },
        },
      },
    },
  };
}

/** Settings real nodes send on every organization; the simulator does not model them. */
const ORG_DEFAULTS = { sharedControlPlane: false, blockInterRegionRouting: false, cpeDeploymentType: 'SDWAN', authType: 'psk' } as const;

/**
 * A record of `GET /mgmt/organization/orgs` in the recorded key order. `paraentOrg` (sic) names the
 * parent and is absent on a root; `description` is sent on roots only; roots are provider orgs.
 *
 * Plans: real nodes send `plan` on every organization. The simulator keeps MN-46 (a child without
 * a plan of its own inherits its parent's) and sends the plan IN FORCE: its own, else the nearest
 * ancestor's. Which organizations set their own plan is visible on the YANG list, which still omits
 * `subscription-plan` when inherited. `plan` would only be omitted if no ancestor had one (the seeds
 * always give roots a plan).
 */
export function organizationRecord(o: SimOrganization, planInForce: string | null): Record<string, unknown> {
  return {
    uuid: o.uuid,
    name: o.name,
    ...(o.parent !== null ? { paraentOrg: o.parent } : {}),
    ...(planInForce !== null ? { plan: planInForce } : {}),
    globalOrgId: o.globalOrgId,
    ...(o.parent === null ? { description: `Provider organization ${o.name}` } : {}),
    ...ORG_DEFAULTS,
    providerOrg: o.parent === null,
    depth: o.depth,
  };
}

/** Each organization's plan in force (own, else inherited), by name. */
export function plansInForce(orgs: readonly SimOrganization[]): Map<string, string | null> {
  const byName = new Map(orgs.map((o) => [o.name, o]));
  const plans = new Map<string, string | null>();
  const resolve = (o: SimOrganization, seen: Set<string>): string | null => {
    const known = plans.get(o.name);
    if (known !== undefined) return known;
    const parent = o.parent !== null ? byName.get(o.parent) : undefined;
    const plan = o.subscriptionPlan ?? (parent && !seen.has(parent.name) ? resolve(parent, seen.add(o.name)) : null);
    plans.set(o.name, plan);
    return plan;
  };
  for (const o of orgs) resolve(o, new Set());
  return plans;
}
