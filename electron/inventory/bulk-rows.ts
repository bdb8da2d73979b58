/**
 * The row checks of a bulk onboarding (before anything is sent): every row validated again with
 * DeviceRecord, a device name or site ID used twice in the file failing the later row. Such a
 * failure is a data error (`dataError`): a retry of the same row fails the same way.
 */
import type { ParsedRequestOf } from '../../shared/contract';
import { DeviceRecord, type BulkRowResult } from '../../shared/model/inventory';
import type { FieldChange } from './node-api';

export interface Row {
  result: BulkRowResult;
  record?: DeviceRecord;
  /** Already on the node with this record: only a deployment is missing. */
  deployOnly?: boolean;
  /**
   * On the node, but its record is not known whole (real nodes list only name, site ID and
   * status): the row's worker reads the record first, then skips, deploys only, or sends.
   */
  check?: boolean;
  /** On the node with another record, and the job replaces: what changes (the result says "Replaced"). */
  replacing?: FieldChange[];
}

/** DeviceRecord on every row; a device name or site ID used twice in the file fails the later row. */
export function validateRows(input: ParsedRequestOf<'onboarding.start'>['rows']): Row[] {
  const names = new Map<string, number>();
  const sites = new Map<number, number>();
  return input.map(({ line, device }) => {
    const rawName = device.deviceName.trim();
    const parsed = DeviceRecord.safeParse(device);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
      const [first, ...more] = issues;
      const message = [first?.message ?? 'Invalid row.', ...more.map((m) => `${m.path}: ${m.message}`)].join(' ');
      return { result: { line, deviceName: rawName, outcome: 'failed', message, ...(first?.path ? { field: first.path } : {}), dataError: true } };
    }
    const rec = parsed.data;
    const sameName = names.get(rec.deviceName);
    if (sameName !== undefined) return { result: { line, deviceName: rec.deviceName, outcome: 'failed', field: 'deviceName', message: `The device ${rec.deviceName} is also on line ${sameName}; each device once per file.`, dataError: true } };
    const sameSite = sites.get(Number(rec.siteId));
    if (sameSite !== undefined) return { result: { line, deviceName: rec.deviceName, outcome: 'failed', field: 'siteId', message: `Site ID ${rec.siteId} is also used on line ${sameSite}.`, dataError: true } };
    names.set(rec.deviceName, line);
    sites.set(Number(rec.siteId), line);
    return { result: { line, deviceName: rec.deviceName, outcome: 'pending' }, record: rec };
  });
}
