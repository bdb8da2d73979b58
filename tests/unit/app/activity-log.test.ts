/** The activity log's recorder (issue 22.2): which requests are writes, and the names it keeps for objects a write deletes. */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ActivityLog, isAuditedWrite } from '../../../electron/app/activity';
import { createMemoryLogger } from '../../../electron/log';
import { openSqliteActivityStore } from '../../../electron/store/activity-store';

let dir = '';
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

function setup() {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-activity-'));
  const db = openSqliteActivityStore(path.join(dir, 'activity.db'));
  const connectors = new Map([['c1', 'Falcon EU']]);
  const profiles = new Map([['p1', { name: 'Lab node', username: 'ops1' }]]);
  const logger = createMemoryLogger();
  const log = new ActivityLog({ db, logger, user: 'alice', now: () => new Date('2026-11-29T08:00:00Z'), context: { profile: (id) => profiles.get(id), connector: (id) => connectors.get(id) } });
  const run = (channel: string, req: Record<string, unknown>, res: unknown, change?: () => void, error?: { message: string }) => {
    const before = log.started(channel, req);
    change?.();
    log.ended(channel, req, before, res, error);
  };
  return { db, log, run, connectors, profiles, logger };
}

describe('activity log', async () => {
  it('stores a write without anyone listening for it', async () => {
    const { db, run } = setup();
    run('connectors.setEnabled', { connectorId: 'c1', enabled: true }, {});
    expect((await db.list({ limit: 10 })).rows).toEqual([expect.objectContaining({ what: 'Enabled a connector', objectName: 'Falcon EU', at: '2026-11-29T08:00:00.000Z' })]);
  });

  it('keeps writes only: a read, a test and a dry run leave nothing', async () => {
    const { db, run, logger } = setup();
    for (const c of ['alarms.list', 'connectors.test', 'zta.snapshot', 'profiles.test', 'activity.list']) expect(isAuditedWrite(c), c).toBe(false);
    run('alarms.list', { profileId: 'p1' }, { rows: [] });
    run('onboarding.start', { profileId: 'p1', rows: [{}, {}], dryRun: true }, { jobId: 'j1' });
    expect((await db.list({ limit: 10 })).total).toBe(0);
    run('onboarding.start', { profileId: 'p1', rows: [{}, {}], dryRun: false, deploy: true }, { jobId: 'j2' });
    expect(logger.lines).toEqual([]);
    expect((await db.list({ limit: 10 })).rows).toEqual([expect.objectContaining({ action: 'onboarding.start', what: 'Started bulk onboarding with deployment', objectName: '2 rows', objectId: 'j2', user: 'alice', nodeUser: 'ops1', connection: 'Lab node' })]);
  });

  it('names a connector or connection the write deleted as it was named before', async () => {
    const { db, run, connectors, profiles, logger } = setup();
    run('connectors.delete', { connectorId: 'c1' }, { deleted: true }, () => connectors.delete('c1'));
    run('profiles.delete', { profileId: 'p1' }, { deleted: true }, () => profiles.delete('p1'));
    const [p, c] = (await db.list({ limit: 10 })).rows;
    expect(logger.lines).toEqual([]);
    expect(c).toMatchObject({ what: 'Deleted a connector', objectName: 'Falcon EU' });
    expect(p).toMatchObject({ what: 'Deleted a connection', objectName: 'Lab node' });
  });
});
