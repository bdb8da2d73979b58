/**
 * The activity log (issue 22.2) through the router on the demo workspace: each operator write is
 * kept with who (the desk's account, the node account), what, on which object and the outcome —
 * a failed one too, a read or a dry run not at all — searchable, and printed the same by
 * `northbound audit export` (the CLI, on the app's data folder).
 */
import os from 'node:os';
import path from 'node:path';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectorStatus } from '../../../shared/contract';
import type { ActivityEntry, ActivityPage } from '../../../shared/model/activity';
import type { AlarmPage } from '../../../shared/model/alarms';
import type { ProfileView } from '../../../shared/model/profile';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { until } from '../../support/until';
import { runCli } from '../../support/cli';

let h: AppHarness;
let profileId = '';

beforeAll(async () => {
  h = await startAppHarness({ openDemo: true, app: { edr: { publishDelayMs: 60_000, firstPullDelayMs: 60_000 }, alarms: { pollIntervalMs: 100, changedEveryMs: 20, statusEveryMs: 50, notifyEveryMs: 0 } } });
  h.app.demo.simulator!.alarms.generator.stop(true);
  profileId = h.app.demo.status().oauthProfileId!;
  await h.call('session.signIn', { profileId });
  h.app.demo.simulator!.alarms.generator.step(10);
}, 60_000);
afterAll(async () => h?.close());


const list = (req: Record<string, unknown> = {}) => h.call<ActivityPage>('activity.list', req);

describe('the activity log', () => {
  it('keeps each write with who, what, on which object and the outcome; not reads or dry runs; exported the same by the CLI', async () => {
    const profile = (await h.call<ProfileView[]>('profiles.list')).find((p) => p.id === profileId)!;
    const before = (await list()).total;

    // A clear with a note, on the node.
    const alarms = await until('alarms stored', async () => {
      const p = await h.call<AlarmPage>('alarms.list', { profileId, filter: {}, limit: 2 });
      return p.rows.length === 2 && p;
    });
    await h.call('alarms.clear', { profileId, ids: alarms.rows.map((r) => r.id), note: 'Replaced the optic' });
    // A connector disabled; a rescore of an unknown connector, which fails.
    const connector = (await h.call<ConnectorStatus[]>('connectors.list'))[0]!;
    await h.call('connectors.setEnabled', { connectorId: connector.id, enabled: false });
    const refused = await h.callRaw('zta.applyRisk', { connectorId: 'no-such-connector', risk: { weights: { critical: 50, operational: 50 } } });
    expect(refused.ok).toBe(false);
    // Reads and a dry run are not writes.
    await h.call('alarms.list', { profileId, filter: {} });
    await h.call('connectors.list');
    await h.call('onboarding.start', { profileId, rows: [{ line: 2, record: {} }], dryRun: true }).catch(() => undefined);

    const page = await list();
    expect(page.total).toBe(before + 3);
    expect(page.kept.days).toBeGreaterThanOrEqual(30);
    const [failed, disabled, cleared] = page.rows as [ActivityEntry, ActivityEntry, ActivityEntry];
    expect(cleared).toMatchObject({
      user: os.userInfo().username,
      nodeUser: profile.username,
      connection: profile.name,
      action: 'alarms.clear',
      what: 'Cleared 2 alarms',
      objectKind: 'alarms',
      objectId: alarms.rows.map((r) => r.id).join(','),
      outcome: 'ok',
      detail: 'Replaced the optic',
    });
    expect(disabled).toMatchObject({ action: 'connectors.setEnabled', what: 'Disabled a connector', objectId: connector.id, objectName: connector.name, nodeUser: null, outcome: 'ok' });
    expect(failed).toMatchObject({ action: 'zta.applyRisk', objectId: 'no-such-connector', outcome: 'failed', detail: refused.error!.message });
    expect(Date.parse(cleared.at)).toBeLessThanOrEqual(Date.parse(failed.at));

    // Searched and filtered in main.
    expect((await list({ q: 'OPTIC' })).rows.map((e) => e.id)).toEqual([cleared.id]);
    expect((await list({ outcome: 'failed' })).rows.map((e) => e.id)).toEqual([failed.id]);
    expect((await list({ q: '100%_' })).total).toBe(0);
    expect((await list({ limit: 1, beforeId: disabled.id })).rows.map((e) => e.id)).toEqual([cleared.id]);
    // An event told the window of each.
    await until('activity.changed pushed', async () => h.pushed.filter((p) => p.includes('"activity.changed"')).length >= 3 || undefined);

    // The CLI prints the same entries, oldest first, as JSON Lines and as CSV.
    const jsonl = await runCli(['audit', 'export', '--data-dir', h.dataDir]);
    expect(jsonl.code).toBe(0);
    const lines = jsonl.stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines.slice(-3)).toEqual([cleared, disabled, failed].map(({ id: _id, ...rest }) => rest));
    const csv = await runCli(['audit', 'export', '--data-dir', h.dataDir, '--format', 'csv']);
    expect(csv.code).toBe(0);
    const rows = Papa.parse<Record<string, string>>(csv.stdout.trim(), { header: true }).data;
    expect(rows.at(-3)).toMatchObject({ user: cleared.user, nodeUser: cleared.nodeUser, action: 'alarms.clear', detail: 'Replaced the optic', outcome: 'ok' });
    expect(rows.at(-1)).toMatchObject({ nodeUser: '', outcome: 'failed' });
    // Wrong options and a folder without a log, in words and exit codes.
    expect(await runCli(['audit', 'export', '--data-dir', h.dataDir, '--format', 'xml'])).toMatchObject({ code: 2, stderr: expect.stringContaining('--format is jsonl or csv') });
    expect(await runCli(['audit', 'export', '--data-dir', path.join(h.dataDir, 'nothing-here')])).toMatchObject({ code: 1, stderr: expect.stringContaining('no activity.db') });
  }, 60_000);
});
