/**
 * Hosts their vendor has not assessed (issue 22.1, EDR-N1 and N2), through the router on the demo's
 * Falcon tenant (about 7 % of its hosts have no Zero Trust Assessment yet): they are Not assessed,
 * counted apart on the Overview and in the snapshot, never High Risk; what reaches the management
 * node for them is the connector's choice, fail-closed by default, stated in the published message.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConnectorStatus } from '../../../shared/contract';
import type { ConnectorView } from '../../../shared/model/connector';
import type { Overview } from '../../../shared/model/overview';
import { BANDS, NOT_ASSESSED_INDEX, type ZtaHostDetail, type ZtaSnapshot } from '../../../shared/model/zta';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { until } from '../../support/until';

let h: AppHarness;
beforeEach(async () => {
  h = await startAppHarness({ openDemo: true, app: { edr: { publishDelayMs: 50, firstPullDelayMs: 60_000 } } });
});
afterEach(async () => {
  await h?.close();
});

interface Published {
  cycleId: number;
  summary: { hosts: number; meanScore: number; bands: Record<string, number>; notAssessed: string };
  hosts: Array<{ hostId: string; score: number; band: string; assessed: boolean }>;
}

async function falconConnector(): Promise<ConnectorStatus> {
  const c = (await h.call<ConnectorStatus[]>('connectors.list')).find((x) => x.vendor === 'falcon');
  if (!c) throw new Error('the demo has no Falcon connector');
  return c;
}

/** Polls the connector now and returns what the demo node received for that cycle. */
async function pollAndReceive(connectorId: string): Promise<Published[]> {
  const { cycleId } = await h.call<{ cycleId: number }>('connectors.pollNow', { connectorId });
  await until(
    `cycle ${cycleId} published`,
    async () => ((await h.call<ConnectorStatus[]>('connectors.list')).find((x) => x.id === connectorId)?.lastCycle?.publishedAt ? true : undefined),
    60_000,
  );
  return h.app.demo.simulator!.receivedScores.filter((r) => r.message.cycleId === cycleId).map((r) => r.message as unknown as Published);
}

describe('hosts not assessed', () => {
  it('are counted apart, explained, and published fail-closed by default or withheld when the connector says so', async () => {
    const falcon = await falconConnector();
    expect(falcon.notAssessed ?? 'fail-closed').toBe('fail-closed');
    const [first] = await pollAndReceive(falcon.id);
    if (!first) throw new Error('nothing published');

    // Stored and shown as Not assessed: none of them High Risk, each with its reason.
    const s = await h.call<ZtaSnapshot>('zta.snapshot');
    const ci = s.connectors.findIndex((c) => c.connectorId === falcon.id);
    const rows = s.rows.hostId.map((_, i) => i).filter((i) => s.rows.connector[i] === ci);
    const unassessed = rows.filter((i) => s.rows.band[i] === NOT_ASSESSED_INDEX);
    expect(unassessed.length).toBeGreaterThan(0);
    for (const i of rows) expect(s.rows.band[i] === NOT_ASSESSED_INDEX).toBe(s.rows.overallAssessment[i] === null);
    const detail = await h.call<ZtaHostDetail>('zta.host', { connectorId: falcon.id, hostId: s.rows.hostId[unassessed[0]!]! });
    expect(detail).toMatchObject({ band: 'Not assessed', score: null, notAssessed: 'fail-closed' });
    expect(detail.contributions[0]?.detail).toMatch(/^Not assessed: Falcon has no Zero Trust Assessment/);
    expect(detail.history.every((p) => p.score === null && p.band === 'Not assessed')).toBe(true);

    // The Overview counts them apart: its High Risk is the hosts scored High Risk only.
    const o = await h.call<Overview>('overview.get', {});
    if (o.risk.state !== 'known') throw new Error('risk not known');
    const allRows = s.rows.band;
    for (const b of BANDS) expect(o.risk.bands[b], b).toBe(allRows.filter((x) => x === BANDS.indexOf(b)).length);
    expect(o.risk.bands['Not assessed']).toBe(allRows.filter((x) => x === NOT_ASSESSED_INDEX).length);

    // Fail-closed: each is published as High Risk, score 100, marked not assessed; the summary says so.
    const ids = new Set(unassessed.map((i) => s.rows.hostId[i]!));
    expect(first.summary).toMatchObject({ hosts: rows.length, notAssessed: 'fail-closed', bands: { 'Not assessed': unassessed.length } });
    const sent = first.hosts.filter((x) => ids.has(x.hostId));
    expect(sent).toHaveLength(unassessed.length);
    for (const x of sent) expect(x).toMatchObject({ band: 'High Risk', score: 100, assessed: false });
    expect(first.hosts.filter((x) => !ids.has(x.hostId)).every((x) => x.assessed && x.band !== 'Not assessed')).toBe(true);
    // The mean is of the hosts that have a score.
    const scored = rows.filter((i) => s.rows.band[i] !== NOT_ASSESSED_INDEX);
    expect(first.summary.meanScore).toBeCloseTo(scored.reduce((a, i) => a + s.rows.score[i]!, 0) / scored.length, 1);

    // Withhold: saved on the connector (everything else as it was), the next cycle leaves them out.
    const view = (await h.call<ConnectorView[]>('connectors.list')).find((x) => x.id === falcon.id)!;
    const { id, vendor, name, enabled, tenantId, clientId, cloudRegion, pollIntervalMinutes, apiUrl } = view;
    const saved = await h.call<ConnectorView>('connectors.save', { id, vendor, name, enabled, tenantId, clientId, cloudRegion, pollIntervalMinutes, apiUrl, notAssessed: 'withhold' });
    expect(saved.notAssessed).toBe('withhold');
    const bad = await h.callRaw('connectors.save', { id, vendor, name, enabled, tenantId, clientId, cloudRegion, pollIntervalMinutes, apiUrl, notAssessed: 'publish-anyway' });
    expect(bad.error?.details?.issues).toEqual([expect.objectContaining({ path: 'notAssessed', message: expect.stringContaining('fail-closed or withhold') })]);
    const [second] = await pollAndReceive(falcon.id);
    expect(second?.summary).toMatchObject({ notAssessed: 'withhold', bands: { 'Not assessed': unassessed.length } });
    expect(second?.hosts.some((x) => ids.has(x.hostId))).toBe(false);
    expect(second?.hosts).toHaveLength(rows.length - unassessed.length);
    expect((await h.call<ZtaHostDetail>('zta.host', { connectorId: falcon.id, hostId: [...ids][0]! })).notAssessed).toBe('withhold');
    // A save that does not name the choice keeps it.
    expect((await h.call<ConnectorView>('connectors.save', { id, vendor, name, enabled, tenantId, clientId, cloudRegion, pollIntervalMinutes, apiUrl })).notAssessed).toBe('withhold');
  }, 120_000);
});
