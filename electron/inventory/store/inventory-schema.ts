/** inventory.db's schema (inventory-db.ts): its migrations in order. */
/** The devices table's sort indexes (C-100): name and columns, as step 4 creates them (a large list replaced drops and builds them again). */
export const DEVICE_INDEXES: ReadonlyArray<readonly [string, string]> = [
  ['devices_by_name', 'profile_id, name_key, device_name'],
  ['devices_by_serial', 'profile_id, serial_key, device_name'],
  ['devices_by_site', 'profile_id, site_num, name_key, device_name'],
  ['devices_by_org', 'profile_id, org_key, name_key, device_name'],
  ['devices_by_group', 'profile_id, group_key, name_key, device_name'],
  ['devices_by_country', 'profile_id, country_key, name_key, device_name'],
  ['devices_by_status', 'profile_id, status_rank, name_key, device_name'],
  ['devices_by_reach', 'profile_id, reach_rank, name_key, device_name'],
  ['devices_by_sync', 'profile_id, sync_rank, name_key, device_name'],
];

/** Migrations as a versioned list (`PRAGMA user_version` = how many ran). */
export const MIGRATIONS: readonly string[] = [
  // 1: the first schema (issue 4). IF NOT EXISTS: stores from before the version count match it.
  `CREATE TABLE IF NOT EXISTS devices (
  profile_id TEXT NOT NULL,
  device_name TEXT NOT NULL,
  site_id TEXT NOT NULL,
  org_name TEXT NOT NULL,
  serial_number TEXT NOT NULL,
  device_group TEXT NOT NULL,
  country TEXT NOT NULL,
  latitude TEXT NOT NULL,
  longitude TEXT NOT NULL,
  deployment_status TEXT NOT NULL,
  last_task_id TEXT,
  PRIMARY KEY (profile_id, device_name)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS devices_org ON devices(profile_id, org_name);
CREATE TABLE IF NOT EXISTS organizations (
  profile_id TEXT NOT NULL,
  name TEXT NOT NULL,
  uuid TEXT NOT NULL,
  parent TEXT,
  subscription_plan TEXT,
  position INTEGER NOT NULL,
  PRIMARY KEY (profile_id, name)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS fetches (
  profile_id TEXT NOT NULL,
  what TEXT NOT NULL,
  fetched_at TEXT NOT NULL,
  PRIMARY KEY (profile_id, what)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS tasks (
  profile_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  device_name TEXT NOT NULL,
  state TEXT NOT NULL,
  percent REAL NOT NULL,
  message TEXT NOT NULL,
  started_at TEXT,
  ended_at TEXT,
  PRIMARY KEY (profile_id, task_id)
) WITHOUT ROWID;`,
  // 2: devices as real nodes list them (issue 8): only name, site ID, workflow status and last
  // change are sure, the rest may be unknown (NULL); the appliance state per device; how many
  // records of a list could not be read; what the console learned of a node (its namespace).
  `ALTER TABLE devices RENAME TO devices_v1;
   CREATE TABLE devices (
     profile_id TEXT NOT NULL,
     device_name TEXT NOT NULL,
     site_id TEXT,
     org_name TEXT,
     serial_number TEXT,
     device_group TEXT,
     country TEXT,
     latitude TEXT,
     longitude TEXT,
     deployment_status TEXT NOT NULL,
     workflow_status TEXT,
     last_modified_by TEXT,
     last_modified_at TEXT,
     last_task_id TEXT,
     PRIMARY KEY (profile_id, device_name)
   ) WITHOUT ROWID;
   INSERT INTO devices (profile_id, device_name, site_id, org_name, serial_number, device_group, country, latitude, longitude, deployment_status, last_task_id)
     SELECT profile_id, device_name, site_id, org_name, serial_number, device_group, country, latitude, longitude, deployment_status, last_task_id FROM devices_v1;
   DROP TABLE devices_v1;
   ALTER TABLE fetches ADD COLUMN unreadable INTEGER NOT NULL DEFAULT 0;
   CREATE TABLE appliances (
     profile_id TEXT NOT NULL,
     name TEXT NOT NULL,
     state TEXT NOT NULL,
     PRIMARY KEY (profile_id, name)
   ) WITHOUT ROWID;
   CREATE TABLE node_meta (
     profile_id TEXT NOT NULL,
     key TEXT NOT NULL,
     value TEXT NOT NULL,
     PRIMARY KEY (profile_id, key)
   ) WITHOUT ROWID;`,
  // 3: a deployment task's step log, each message with its time (issue 10.9), as JSON.
  `ALTER TABLE tasks ADD COLUMN steps TEXT NOT NULL DEFAULT '[]';`,
  // 4: the devices table's windows (issue 25.3, C-99): each device's sort keys and search text as
  // shared/model/device-window.ts computes them from the device as shown (its appliance joined),
  // written beside it (inventory-db.ts fills rows from before this step when it opens), and one
  // index per sort key, its ties (natural name key, then name) last, read either way.
  `ALTER TABLE devices ADD COLUMN name_key TEXT;
   ALTER TABLE devices ADD COLUMN site_num REAL;
   ALTER TABLE devices ADD COLUMN org_eff TEXT;
   ALTER TABLE devices ADD COLUMN org_key TEXT;
   ALTER TABLE devices ADD COLUMN group_key TEXT;
   ALTER TABLE devices ADD COLUMN country_key TEXT;
   ALTER TABLE devices ADD COLUMN serial_key TEXT;
   ALTER TABLE devices ADD COLUMN reach_rank INTEGER;
   ALTER TABLE devices ADD COLUMN sync_rank INTEGER;
   ALTER TABLE devices ADD COLUMN hay TEXT;
   ALTER TABLE devices ADD COLUMN status_rank INTEGER GENERATED ALWAYS AS (CASE deployment_status WHEN 'saved' THEN 0 WHEN 'deploying' THEN 1 WHEN 'deployed' THEN 2 WHEN 'failed' THEN 3 ELSE -1 END) VIRTUAL;
` +
    DEVICE_INDEXES.map(([name, columns]) => `CREATE INDEX ${name} ON devices (${columns});`).join('\n'),
];

export const INVENTORY_SCHEMA_VERSION = MIGRATIONS.length;
