/** UI state of the inventory pages (filters, sort, view mode), kept while the operator switches sections. */
import { create } from 'zustand';
import type { DeploymentStatus } from '../../shared/model/inventory';
import type { ConfigSync, Reachability, SortKey } from '../features/devices/device-index';

export interface DeviceSort {
  key: SortKey;
  desc: boolean;
}

interface InventoryUiState {
  deviceSearch: string;
  deviceOrg: string;
  deviceGroup: string;
  deviceStatus: DeploymentStatus | '';
  deviceReach: Reachability | '';
  deviceSync: ConfigSync | '';
  deviceSort: DeviceSort;
  orgView: 'tree' | 'list';
  orgSearch: string;
  setDeviceSearch(v: string): void;
  setDeviceFilter(patch: Partial<Pick<InventoryUiState, 'deviceOrg' | 'deviceGroup' | 'deviceStatus' | 'deviceReach' | 'deviceSync'>>): void;
  setDeviceSort(sort: DeviceSort): void;
  clearDeviceFilters(): void;
  setOrgView(v: 'tree' | 'list'): void;
  setOrgSearch(v: string): void;
}

export const useInventoryUi = create<InventoryUiState>()((set) => ({
  deviceSearch: '',
  deviceOrg: '',
  deviceGroup: '',
  deviceStatus: '',
  deviceReach: '',
  deviceSync: '',
  deviceSort: { key: 'deviceName', desc: false },
  orgView: 'tree',
  orgSearch: '',
  setDeviceSearch: (deviceSearch) => set({ deviceSearch }),
  setDeviceFilter: (patch) => set(patch),
  setDeviceSort: (deviceSort) => set({ deviceSort }),
  clearDeviceFilters: () => set({ deviceSearch: '', deviceOrg: '', deviceGroup: '', deviceStatus: '', deviceReach: '', deviceSync: '' }),
  setOrgView: (orgView) => set({ orgView }),
  setOrgSearch: (orgSearch) => set({ orgSearch }),
}));
