/** The alarm tests' store: the SQLite `AlarmStore`, and its synchronous `AlarmDb` for tests that read rows directly. */
import type { AlarmDb } from '../../electron/alarms/store/alarms-db';
import type { AlarmStore } from '../../electron/alarms/store/alarm-store';
import { SqliteAlarmStore } from '../../electron/alarms/store/sqlite-alarm-store';

export { openAlarmStore } from '../../electron/alarms/store/sqlite-alarm-store';

export function alarmDb(store: AlarmStore): AlarmDb {
  if (!(store instanceof SqliteAlarmStore)) throw new Error('not the SQLite alarm store');
  return store.db;
}

/**
 * `store` as a server database would answer: every call resolves on a later turn of the event loop
 * (a batch commits some milliseconds after `ingest` was called), and there is no `db` to reach
 * behind the interface. `onCommit` hears each batch once it is committed.
 */
export function laterStore(store: AlarmStore, o: { delayMs?: number; onCommit?: (source: string, broker: boolean) => void } = {}): AlarmStore {
  const later = () => new Promise<void>((resolve) => setTimeout(resolve, o.delayMs ?? 10));
  return new Proxy({} as AlarmStore, {
    get(_, name: keyof AlarmStore) {
      if (name === 'exportAlarms') return (since?: number) => store.exportAlarms(since);
      if (name === 'ingest')
        return async (...args: Parameters<AlarmStore['ingest']>) => {
          await later();
          const r = await store.ingest(...args);
          o.onCommit?.(args[0], args[2].messageIds !== undefined);
          return r;
        };
      const method = store[name] as unknown;
      if (typeof method !== 'function') return undefined;
      return async (...args: unknown[]) => {
        await later();
        return (method as (...a: unknown[]) => unknown).apply(store, args);
      };
    },
  });
}
