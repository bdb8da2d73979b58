/**
 * Devices, organizations, deployment tasks, bulk onboarding jobs and syslog servers: one hook
 * per channel. Lists are per profile and come from main's SQLite copy (they show offline); the
 * devices in windows filtered, searched and sorted there (issue 25.3, C-99), never the whole list;
 * `inventory.changed`, `task.progress` and `onboarding.progress` keep them fresh (event-sync.ts).
 */
import { keepPreviousData, skipToken, useMutation, useQueries, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { EventPayload, RequestOf } from '../../shared/contract';
import type { BulkJobState, TaskStatus } from '../../shared/model/inventory';
import { useClient } from './ApiProvider';
import type { DeviceWindow, DeviceWindowQuery } from '../../shared/model/device-window';
import { applyTaskToDevices, isTaskNewer, mergeJob, replaceDevice } from './inventory-cache';
import { keys } from './keys';

export type InventoryProgress = Partial<Record<'devices' | 'organizations', EventPayload<'inventory.progress'>>>;

/** The devices page before any row (C-99): the count, the filters' choices, the list's and the state's age. */
export function useDeviceFacets(profileId: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.deviceFacets(profileId ?? ''),
    queryFn: profileId ? () => client.invoke('inventory.facets', { profileId }) : skipToken,
    staleTime: 60_000,
  });
}

/** Rows of the devices table read at a time. */
export const DEVICE_PAGE = 100;
export type DeviceWindowAsk = Omit<DeviceWindowQuery, 'profileId' | 'offset' | 'limit'>;

/** The devices table's pages at these offsets (DEVICE_PAGE rows each), filtered, searched and sorted in the store. */
export function useDevicePages(profileId: string, q: DeviceWindowAsk, offsets: readonly number[]) {
  const client = useClient();
  return useQueries({
    queries: offsets.map((offset) => ({
      queryKey: keys.deviceWindow(profileId, { ...q, offset, limit: DEVICE_PAGE }),
      queryFn: () => client.invoke('inventory.window', { profileId, ...q, offset, limit: DEVICE_PAGE }),
      staleTime: 60_000,
    })),
  });
}

/** A few devices from the top of a window (the palette's matches, a lookup by name or site ID); `undefined` reads nothing. */
export function useDeviceTop(q: Omit<DeviceWindowQuery, 'offset'> | undefined, silent = false) {
  const client = useClient();
  return useQuery({
    queryKey: keys.deviceWindow(q?.profileId ?? '', { ...q, offset: 0 }),
    queryFn: q ? () => client.invoke('inventory.window', { ...q, offset: 0 }) : skipToken,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
    ...(silent ? { meta: { silent: true } } : {}),
  });
}

export function useInventoryOrganizations(profileId: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.inventoryOrganizations(profileId ?? ''),
    queryFn: profileId ? () => client.invoke('inventory.organizations', { profileId }) : skipToken,
    staleTime: 60_000,
  });
}

/** Asks the store for a window once, now (the wizard's check of who holds a site ID). */
export function useDeviceLookup() {
  const client = useClient();
  const qc = useQueryClient();
  return useCallback(
    (q: Omit<DeviceWindowQuery, 'offset'>) =>
      qc.fetchQuery({ queryKey: keys.deviceWindow(q.profileId, { ...q, offset: 0 }), queryFn: () => client.invoke('inventory.window', { ...q, offset: 0 }), staleTime: 0 }),
    [client, qc],
  );
}

/** The paging progress of a running refresh (from `inventory.progress`; nothing is fetched). */
export function useInventoryProgress(profileId: string | undefined) {
  return useQuery<InventoryProgress>({ queryKey: keys.inventoryProgress(profileId ?? ''), queryFn: skipToken, staleTime: Infinity }).data;
}

export function useRefreshInventory() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'inventory.refresh'>) => client.invoke('inventory.refresh', req),
    // The lists themselves are reloaded by main's inventory.changed event (event-sync.ts), once.
    onSettled: (_r, _e, req) => qc.removeQueries({ queryKey: keys.inventoryProgress(req.profileId), exact: true }),
  });
}

/** One device fresh from the node; fetched only when asked (`refetch`), the stored row is shown meanwhile. */
export function useDeviceFromNode(profileId: string, deviceName: string) {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => client.invoke('devices.get', { profileId, deviceName }),
    onSuccess: (device) => {
      qc.setQueryData(keys.device(profileId, deviceName), device);
      qc.setQueriesData<DeviceWindow>({ queryKey: keys.deviceWindows(profileId) }, (old) => replaceDevice(old, device));
    },
  });
}

/** The next free site ID; silent (the wizard says why it has none, e.g. offline). */
export function useNextSiteId(profileId: string | undefined, enabled = true) {
  const client = useClient();
  return useQuery({
    queryKey: keys.nextSiteId(profileId ?? ''),
    queryFn: profileId && enabled ? () => client.invoke('devices.nextSiteId', { profileId }) : skipToken,
    staleTime: 0,
    gcTime: 0,
    retry: false,
    meta: { silent: true },
  });
}

/** An organization's device groups (the node's, else those its stored devices use); silent: the step says why. */
export function useDeviceGroups(profileId: string | undefined, orgName: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.deviceGroups(profileId ?? '', orgName ?? ''),
    queryFn: profileId && orgName ? () => client.invoke('devices.groups', { profileId, orgName }) : skipToken,
    staleTime: 30_000,
    retry: false,
    meta: { silent: true },
  });
}

/** Onboards one device; the wizard puts server errors under their fields itself. */
export function useOnboardDevice() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'devices.onboard'>) => client.invoke('devices.onboard', req),
    meta: { silent: true },
    onSuccess: (_d, req) => {
      void qc.invalidateQueries({ queryKey: keys.inventoryDevices(req.profileId) });
      void qc.invalidateQueries({ queryKey: keys.inventoryOrganizations(req.profileId) });
    },
  });
}

export function useDeployDevice() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'devices.deploy'>) => client.invoke('devices.deploy', req),
    onSuccess: (task) => writeTask(qc, task),
  });
}

/** Writes a task into the cache unless the cache already holds a newer state, and moves its device's status. */
export function writeTask(qc: QueryClient, task: TaskStatus): void {
  const key = keys.task(task.profileId, task.taskId);
  const old = qc.getQueryData<TaskStatus>(key);
  if (!isTaskNewer(old, task)) return;
  qc.setQueryData(key, task);
  qc.setQueriesData<DeviceWindow>({ queryKey: keys.deviceWindows(task.profileId) }, (w) => applyTaskToDevices(w, task));
}

/** A node task; `task.progress` events update it in place. */
export function useTask(profileId: string | undefined, taskId: string | null | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.task(profileId ?? '', taskId ?? ''),
    queryFn: profileId && taskId ? () => client.invoke('tasks.get', { profileId, taskId }) : skipToken,
    staleTime: Infinity,
    meta: { silent: true },
  });
}

/** A device's last deployment task looked up on the node (a failed device whose task the console never followed). */
export function useLastTask(profileId: string | undefined, deviceName: string, enabled: boolean) {
  const client = useClient();
  const qc = useQueryClient();
  return useQuery({
    queryKey: keys.lastTask(profileId ?? '', deviceName),
    queryFn:
      profileId && enabled
        ? async () => {
            const task = await client.invoke('tasks.lastOf', { profileId, deviceName });
            if (task) qc.setQueryData(keys.task(profileId, task.taskId), task);
            return task;
          }
        : skipToken,
    staleTime: 60_000,
    retry: false,
    meta: { silent: true },
  });
}

export function useStartOnboarding() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'onboarding.start'>) => client.invoke('onboarding.start', req),
    meta: { silent: true },
    onSuccess: (job) => qc.setQueryData<BulkJobState>(keys.onboardingJob(job.jobId), (old) => mergeJob(old, job)),
  });
}

export function useCancelOnboarding() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'onboarding.cancel'>) => client.invoke('onboarding.cancel', req),
    onSuccess: (job) => qc.setQueryData<BulkJobState>(keys.onboardingJob(job.jobId), (old) => mergeJob(old, job)),
  });
}

/** A bulk job with every row; written by `onboarding.start` and `onboarding.progress`, fetched whole after a reconnect. */
export function useOnboardingJob(jobId: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.onboardingJob(jobId ?? ''),
    queryFn: jobId ? () => client.invoke('onboarding.get', { jobId }) : skipToken,
    staleTime: Infinity,
  });
}

export function useSyslogServers(profileId: string | undefined) {
  const client = useClient();
  return useQuery({
    queryKey: keys.syslog(profileId ?? ''),
    queryFn: profileId ? () => client.invoke('syslog.list', { profileId }) : skipToken,
  });
}

/** Adds a syslog server; the form puts a refused field under its input itself. */
export function useCreateSyslogServer() {
  const client = useClient();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (req: RequestOf<'syslog.create'>) => client.invoke('syslog.create', req),
    meta: { silent: true },
    onSuccess: (list, req) => qc.setQueryData(keys.syslog(req.profileId), list),
  });
}
