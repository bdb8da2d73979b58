/**
 * One device index per devices list, shared by whoever searches it (the Devices page, the
 * command palette): 20,000 devices are indexed once, not once per view.
 */
import type { DeviceView } from '../../../shared/model/inventory';
import { buildDeviceIndex, type DeviceIndex } from './device-index';

const built = new WeakMap<readonly DeviceView[], DeviceIndex>();

export function deviceIndexOf(devices: readonly DeviceView[]): DeviceIndex {
  let index = built.get(devices);
  if (!index) {
    index = buildDeviceIndex(devices);
    built.set(devices, index);
  }
  return index;
}
