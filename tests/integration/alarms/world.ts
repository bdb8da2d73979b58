/**
 * The alarm tests' world: the management node simulator (alarms on, generator stopped until the
 * test starts it), a basic-auth client to it, a fresh alarms.db, and the checks every test makes
 * of the store: which message IDs it holds, and how often.
 */
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { NodeAlarmApi } from '../../../electron/alarms/node-api';
import { createMemoryLogger } from '../../../electron/log';
import { MgmtClient } from '../../../electron/mgmt';
import { startMgmtSimulator, type MgmtSimulator, type SimAlarmOptions } from '@northbound/simulators/testing';
import type { AlarmStore } from '../../../electron/alarms/store/alarm-store';
import { openAlarmStore } from '../../support/alarm-fixtures';

export interface AlarmWorld {
  sim: MgmtSimulator;
  client: MgmtClient;
  api: NodeAlarmApi;
  dir: string;
  store: AlarmStore;
  /** The alarms.db file of `store`. */
  file: string;
  logger: ReturnType<typeof createMemoryLogger>;
  operator: { username: string; password: string };
  close(): Promise<void>;
}

export async function startAlarmWorld(alarms: SimAlarmOptions = {}): Promise<AlarmWorld> {
  const sim = await startMgmtSimulator({ alarms: { ...alarms, generator: { seed: 21, ...alarms.generator, start: false } } });
  const operator = sim.users.find((u) => u.role === 'operator')!;
  const logger = createMemoryLogger('info');
  const client = new MgmtClient({
    profile: { id: 'alarm-test', host: '127.0.0.1', basicPort: sim.basicPort, oauthPort: sim.oauthPort, authMode: 'basic', username: operator.username, tls: { mode: 'custom-ca', caPem: sim.certificatePem } },
    secrets: { getPassword: async () => operator.password, getClientSecret: async () => undefined },
    logger,
  });
  await client.signIn();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'nb-alarms-'));
  const store = openAlarmStore(path.join(dir, 'alarms.db'));
  return {
    sim,
    client,
    api: new NodeAlarmApi((m, p, b, o) => client.request(m, p, b, o)),
    dir,
    store,
    file: path.join(dir, 'alarms.db'),
    logger,
    operator: { username: operator.username, password: operator.password },
    async close() {
      sim.alarms.generator.stop(true);
      await store.close();
      await client.close();
      await sim.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export interface StoredIds {
  /** Status changes and handlings stored. */
  rows: number;
  /** Rows without a message ID (only REST brought them so far). */
  withoutId: number;
  distinct: number;
  min: number | null;
  max: number | null;
  /** Message IDs stored more than once. */
  twice: number[];
}

/** What an alarms.db file holds by message ID (read-only; the writer may be another process). */
export function storedIds(file: string): StoredIds {
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const q = (sql: string) => db.prepare(sql).get() as Record<string, number | null>;
    const all = `SELECT message_id FROM changes UNION ALL SELECT message_id FROM handlings`;
    const totals = q(`SELECT COUNT(*) AS rows, SUM(message_id IS NULL) AS withoutId, COUNT(DISTINCT message_id) AS distinct_, MIN(message_id) AS min, MAX(message_id) AS max FROM (${all})`);
    const twice = (db.prepare(`SELECT message_id FROM (${all}) WHERE message_id IS NOT NULL GROUP BY message_id HAVING COUNT(*) > 1 LIMIT 20`).all() as Array<{ message_id: number }>).map((r) => r.message_id);
    return { rows: totals.rows ?? 0, withoutId: totals.withoutId ?? 0, distinct: totals.distinct_ ?? 0, min: totals.min ?? null, max: totals.max ?? null, twice };
  } finally {
    db.close();
  }
}

/** Every event 1…n stored exactly once, each with its message ID. */
export const exactlyOnce = (n: number): StoredIds => ({ rows: n, withoutId: 0, distinct: n, min: 1, max: n, twice: [] });
