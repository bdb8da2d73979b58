/**
 * The node's appliance list (issue 8): the state of each device as the node sees it —
 * reachability (`ping-status`), configuration sync (`sync-status`), software version, model and
 * serial, last update and alarm counts. Real nodes answer
 * `{"<ns>.ApplianceStatusResult": {"totalCount", "appliances": [...]}}` (MN-51); a top-level
 * `{"totalCount", "appliances"}` is read too. Records are read leniently: unknown words become
 * "unknown", a missing block null; a record without a name is counted as unreadable.
 */
import type { ApplianceState } from '../../shared/model/inventory';
import { boundStrings, LIMITS } from '../../shared/model/limits';
import type { StoredAppliance } from './store/inventory-store';
import { filled, isObject, listOf, nodeTime, type NodePage } from '../mgmt/node-answer';

export const APPLIANCES_PATH = '/mgmt/appliance/appliance';

const word = (v: unknown) => filled(v)?.toUpperCase().replace(/[\s-]+/g, '_');

export const readAppliancesPage = (body: unknown): NodePage<unknown> => listOf(body, ['appliances'], 'an appliance list', ['ApplianceStatusResult']);

function reachability(raw: Record<string, unknown>): ApplianceState['reachability'] {
  const ping = word(raw['ping-status']);
  if (ping === 'REACHABLE') return 'reachable';
  if (ping === 'UNREACHABLE') return 'unreachable';
  if (typeof raw.unreachable === 'boolean') return raw.unreachable ? 'unreachable' : 'reachable';
  return 'unknown';
}

function configSync(raw: Record<string, unknown>): ApplianceState['configSync'] {
  const sync = word(raw['sync-status']);
  if (sync === 'IN_SYNC') return 'in-sync';
  if (sync === 'OUT_OF_SYNC') return 'out-of-sync';
  return 'unknown';
}

/** `alarmSummary` is a table: rows of `{firstColumnValue: "Critical", columnValues: [n]}`. */
function alarms(raw: unknown): ApplianceState['alarms'] {
  if (!isObject(raw) || !Array.isArray(raw.rows)) return null;
  const out = { critical: 0, major: 0, minor: 0, warning: 0 };
  let seen = false;
  for (const row of raw.rows) {
    if (!isObject(row)) continue;
    const key = filled(row.firstColumnValue)?.toLowerCase();
    const values = Array.isArray(row.columnValues) ? row.columnValues : [];
    const n = Number(values[0]);
    if (key && key in out && Number.isInteger(n) && n >= 0) {
      out[key as keyof typeof out] = n;
      seen = true;
    }
  }
  return seen ? out : null;
}

/** One appliance record; undefined when it names no appliance. */
export function applianceFromNode(raw: unknown): StoredAppliance | undefined {
  if (!isObject(raw)) return undefined;
  const name = filled(raw.name);
  if (!name) return undefined;
  const hw = isObject(raw.Hardware) ? raw.Hardware : {};
  const serial = filled(hw.serialNo);
  return boundStrings<StoredAppliance>({
    name,
    reachability: reachability(raw),
    configSync: configSync(raw),
    pingStatus: filled(raw['ping-status']) ?? null,
    syncStatus: filled(raw['sync-status']) ?? null,
    softwareVersion: filled(raw.softwareVersion) ?? null,
    ownerOrg: filled(raw.ownerOrg) ?? null,
    model: filled(hw.model) ?? null,
    // "Not Specified" is what real nodes send for an unknown serial.
    serialNo: (serial && serial.toLowerCase() !== 'not specified' ? serial : filled(hw.hardWareSerialNo)) ?? null,
    lastUpdatedAt: nodeTime(raw['last-updated-time']) ?? null,
    alarms: alarms(raw.alarmSummary),
  }, LIMITS.name);
}
