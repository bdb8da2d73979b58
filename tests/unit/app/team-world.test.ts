/**
 * A joined console's alarm store (issue 25.1, C-84): a connection's reads go to the source the
 * fleet's collectors store its node under, and what an acknowledge answers is not written by the
 * console (its role may not; the collectors store it from the node's stream).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fleetAlarmSource, sourceMappedAlarmStore } from '../../../electron/app/team-world';
import { openAlarmStore } from '../../../electron/alarms/store/sqlite-alarm-store';
import type { AlarmItem } from '../../../shared/model/alarms';

const T = Date.UTC(2026, 10, 29, 12);
const item = (object: string): AlarmItem => ({
  head: { device: 'dev-1', deviceName: 'dev-1', org: 'Contoso', object, type: 'interface-down', specificProblem: 'link-down', severity: 'major', cleared: false, text: 'down', lastChangeMs: T },
  changes: [{ eventMs: T, severity: 'major', text: 'down' }],
  handlings: [],
  messageId: null,
});

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('the team’s alarm store as a console reads it', () => {
  it('names a node as `alarms follow --node` does', () => {
    expect(fleetAlarmSource({ host: 'director.example', basicPort: 9182 })).toBe('node:director.example:9182');
    expect(fleetAlarmSource({ host: '::1', basicPort: 9182 })).toBe('node:[::1]:9182');
  });

  it('reads a connection’s alarms from its node’s source, and stores nothing an action answers', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'nb-team-alarms-'));
    dirs.push(dir);
    const store = openAlarmStore(path.join(dir, 'alarms.db'));
    try {
      await store.ingest('node:10.0.0.5:9182', [item('vni-0/1')], { storedMs: T });
      const mapped = sourceMappedAlarmStore(store, (profileId) => (profileId === 'p1' ? 'node:10.0.0.5:9182' : `profile:${profileId}`));
      expect((await mapped.list('p1', { cleared: 'all' }, 0, 10)).rows.map((r) => r.object)).toEqual(['vni-0/1']);
      expect((await mapped.list('p2', { cleared: 'all' }, 0, 10)).total).toBe(0);
      const head = await store.headSeq();
      expect(await mapped.ingest('p1', [item('vni-0/2')], { storedMs: T + 1 })).toMatchObject({ newChanges: 0, aids: [], headSeq: head });
      expect((await store.list('node:10.0.0.5:9182', { cleared: 'all' }, 0, 10)).total).toBe(1);
    } finally {
      await store.close();
    }
  });
});
