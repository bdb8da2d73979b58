/** The alarm tests' store: the SQLite `AlarmStore`, and its synchronous `AlarmDb` for tests that read rows directly. */
import type { AlarmDb } from '../../electron/alarms/store/alarms-db';
import type { AlarmStore } from '../../electron/alarms/store/alarm-store';
import { SqliteAlarmStore } from '../../electron/alarms/store/sqlite-alarm-store';

export { openAlarmStore } from '../../electron/alarms/store/sqlite-alarm-store';

export function alarmDb(store: AlarmStore): AlarmDb {
  if (!(store instanceof SqliteAlarmStore)) throw new Error('not the SQLite alarm store');
  return store.db;
}
