/**
 * Pushed events keep the cache true: `session.changed` writes the sessions list in place,
 * `profiles.changed`, `demo.changed` and `connectors.changed` invalidate what they affect,
 * `edr.progress` writes the running cycle into the connectors list (and a cycle that completed or
 * failed invalidates the ZTA dashboard's reads: new scores, or a connector now offline), `notice` goes to the
 * operator. Inventory: `inventory.changed` invalidates a profile's stored lists,
 * `inventory.progress` is kept for the Refresh buttons, `task.progress` writes the task and its
 * device's status, `onboarding.progress` merges the changed rows into the job. Alarms:
 * `alarms.changed` is recorded per connection and the reads in view follow it (alarm-live.ts),
 * `alarms.status` is written in place, `alarms.notification` (browser mode) becomes a browser
 * notification. The Overview and the sidebar's badges (`keys.overview`) follow every event that
 * moves one of their numbers: alarms (`alarms.changed` at most once a second, `alarms.status` when
 * a source goes live or stops), cycles that end, connectors, inventory, sessions and profiles. In
 * browser mode, a reconnected event socket refetches everything it may have missed.
 *
 * An event is newer than any answer still on its way: main may have read that answer before the
 * change. React Query's invalidation alone keeps a first fetch (a list with no data yet) running
 * and takes its answer as current, so a list opened while the demo registered its connectors
 * showed one of the two until the next change. `refetch` drops such an answer and fetches again.
 */
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Bridge, ConnectorStatus, EventPayload } from '../../shared/contract';
import type { BulkJobState } from '../../shared/model/inventory';
import { noteAlarmsChanged } from './alarm-live';
import { pace } from './follow';
import { isHttpBridge } from './bridge';
import { writeTask, type InventoryProgress } from './inventory';
import { mergeJob } from './inventory-cache';
import { keys } from './keys';
import { upsertSession } from './connections';
import { useClient } from './ApiProvider';

/** Fetches `queryKey`'s queries again after an event, dropping an answer in flight (read before the event). */
function refetch(qc: QueryClient, queryKey: QueryKey): void {
  if (qc.isFetching({ queryKey }) > 0) void qc.cancelQueries({ queryKey });
  void qc.invalidateQueries({ queryKey });
}

export function useContractEvents(onNotice: (notice: EventPayload<'notice'>) => void, bridge?: Bridge, onAlarmNotification?: (n: EventPayload<'alarms.notification'>) => void) {
  const client = useClient();
  const qc = useQueryClient();
  useEffect(() => {
    // At the first alarm event, then at most once a second (follow.ts): an alarm stream sends
    // `alarms.changed` every 250 ms; refetching the Overview on each would cancel each answer before it arrived.
    const overviewAfterAlarms = pace(() => refetch(qc, keys.overview), 1000);
    // Per connection, whether its alarm source was live: a change of that moves the Overview's "as of".
    const alarmSourceLive = new Map<string, boolean>();
    const offs = [
      client.on('session.changed', (status) => {
        // An event is newer than a list still in flight: drop that answer, keep the event, and
        // fetch the list again (main's state already includes this change).
        const inFlight = qc.isFetching({ queryKey: keys.sessions }) > 0;
        if (inFlight) void qc.cancelQueries({ queryKey: keys.sessions });
        upsertSession(qc, status);
        if (inFlight) void qc.invalidateQueries({ queryKey: keys.sessions });
        refetch(qc, keys.overview);
      }),
      client.on('profiles.changed', () => {
        refetch(qc, keys.profiles);
        refetch(qc, keys.sessions);
        refetch(qc, keys.appInfo);
        refetch(qc, keys.overview);
      }),
      client.on('demo.changed', (status) => {
        qc.setQueryData(keys.demo, status);
        refetch(qc, keys.appInfo);
        refetch(qc, keys.demo);
        refetch(qc, keys.overview);
      }),
      client.on('activity.changed', () => refetch(qc, keys.activity)),
      // Joined or left a team (C-84): every view reads other stores now.
      client.on('team.changed', () => void qc.invalidateQueries()),
      // The team's database lost or found again (C-90): the banner; every view reads fresh once it is back.
      client.on('team.health', (health) => {
        qc.setQueryData(keys.teamHealth, health);
        if (health.reachable) void qc.invalidateQueries();
      }),
      client.on('updates.changed', (status) => qc.setQueryData(keys.updates, status)),
      client.on('connectors.changed', () => {
        refetch(qc, keys.connectors);
        // Names, risk settings or the connectors themselves changed: the dashboard shows them.
        refetch(qc, keys.zta);
        refetch(qc, keys.overview);
      }),
      client.on('edr.progress', (progress) => {
        const finished = progress.phase === 'completed' || progress.phase === 'failed' || progress.phase === 'cancelled';
        qc.setQueryData<ConnectorStatus[]>(keys.connectors, (old) =>
          old?.map((c) => {
            if (c.id !== progress.connectorId) return c;
            if (finished) {
              const { progress: _done, ...rest } = c;
              return { ...rest, running: false };
            }
            return { ...c, running: true, progress };
          }),
        );
        // The finished cycle's summary (hosts, error, published) comes with the list.
        if (finished) refetch(qc, keys.connectors);
        if (progress.phase === 'completed' || progress.phase === 'failed') refetch(qc, keys.zta);
        if (finished) refetch(qc, keys.overview);
      }),
      // Each changed list is reloaded once; the organizations also when devices changed (their device counts).
      client.on('inventory.changed', ({ profileId, what }) => {
        if (what.includes('devices')) refetch(qc, keys.inventoryDevices(profileId));
        if (what.length > 0) refetch(qc, keys.inventoryOrganizations(profileId));
        if (what.includes('devices')) refetch(qc, keys.overview);
      }),
      client.on('alarms.changed', () => overviewAfterAlarms.run()),
      client.on('alarms.status', (s) => {
        const live = s.connected;
        if (alarmSourceLive.get(s.profileId) === live) return;
        alarmSourceLive.set(s.profileId, live);
        refetch(qc, keys.overview);
      }),
      client.on('inventory.progress', (p) => qc.setQueryData<InventoryProgress>(keys.inventoryProgress(p.profileId), (old) => ({ ...old, [p.what]: p }))),
      client.on('task.progress', (task) => writeTask(qc, task)),
      client.on('onboarding.progress', (job) => qc.setQueryData<BulkJobState>(keys.onboardingJob(job.jobId), (old) => mergeJob(old, job))),
      client.on('notice', onNotice),
      // The alarm reads in view follow these records themselves (alarm-live.ts): no invalidation storm at 2,000 changes/s.
      client.on('alarms.changed', (e) => noteAlarmsChanged(qc, e)),
      client.on('alarms.status', (status) => qc.setQueryData(keys.alarmStatus(status.profileId), status)),
      ...(onAlarmNotification ? [client.on('alarms.notification', onAlarmNotification)] : []),
    ];
    if (bridge && isHttpBridge(bridge)) offs.push(bridge.onReconnect(() => void qc.invalidateQueries()));
    return () => {
      offs.forEach((off) => off());
      overviewAfterAlarms.cancel();
    };
  }, [client, qc, onNotice, bridge, onAlarmNotification]);
}
