/**
 * The Overview page's reads of inventory.db (issue 13): a connection's devices per deployment
 * status (one GROUP BY) and the devices whose deployment failed, newest first, with the message of
 * the task that failed when the console followed it. No device list leaves SQLite.
 */
import type Database from 'better-sqlite3';
import { DeploymentStatus } from '../../../shared/model/inventory';

export type DeploymentCounts = Record<DeploymentStatus, number> & { total: number };

export interface FailedDeployment {
  deviceName: string;
  orgName: string | null;
  /** When the failed task ended (or the record last changed on the node). */
  at: string | null;
  message: string | null;
}

export function deploymentCounts(db: Database.Database, profileId: string): DeploymentCounts {
  const out: DeploymentCounts = { saved: 0, deploying: 0, deployed: 0, failed: 0, total: 0 };
  for (const r of db.prepare('SELECT deployment_status AS status, COUNT(*) AS n FROM devices WHERE profile_id = ? GROUP BY deployment_status').all(profileId) as Array<{ status: string; n: number }>) {
    const status = DeploymentStatus.safeParse(r.status);
    if (status.success) out[status.data] += r.n;
    out.total += r.n;
  }
  return out;
}

export function failedDeployments(db: Database.Database, profileId: string, limit: number): FailedDeployment[] {
  return db
    .prepare(
      `SELECT d.device_name AS deviceName, COALESCE(d.org_name, json_extract(a.state, '$.ownerOrg')) AS orgName,
         COALESCE(t.ended_at, d.last_modified_at) AS at, t.message AS message
       FROM devices d
       LEFT JOIN tasks t ON t.profile_id = d.profile_id AND t.task_id = d.last_task_id
       LEFT JOIN appliances a ON a.profile_id = d.profile_id AND a.name = d.device_name
       WHERE d.profile_id = ? AND d.deployment_status = 'failed'
       ORDER BY at IS NULL, at DESC, d.device_name LIMIT ?`,
    )
    .all(profileId, limit) as FailedDeployment[];
}
