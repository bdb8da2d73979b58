/** One host's page on the ZTA dashboard (issue 11): its record, latest score, contributions and history. */
import { notAssessedOf } from '../../shared/model/connector';
import { NOT_ASSESSED } from '../../shared/model/edr';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { ZtaHostDetail } from '../../shared/model/zta';
import { defaultRiskConfig, tenantRiskConfig } from '../../shared/risk';
import { latestByConnector, shownConnectors, type ZtaConnectorDeps } from './zta-connectors';

export async function ztaHostDetail(d: ZtaConnectorDeps, connectorId: string, hostId: string): Promise<ZtaHostDetail> {
  const latest = await latestByConnector(d.store);
  const c = (await shownConnectors(d, latest)).find((x) => x.id === connectorId) ?? d.registry.get(connectorId);
  const row = await d.store.hostScore(connectorId, hostId);
  if (!row) throw new AppError(ErrorCodes.notFound, `No stored score for host ${hostId}.`, 'The host may have left the tenant; refresh the dashboard.');
  const config = tenantRiskConfig(c.risk);
  const newest = (await d.store.latestCycles()).find((x) => x.connectorId === connectorId);
  return {
    connectorId,
    connectorName: c.name,
    host: row.host,
    score: row.band === NOT_ASSESSED ? null : row.score,
    band: row.band,
    notAssessed: notAssessedOf(c),
    scoredAt: row.scoredAt,
    cycleId: row.cycleId,
    asOf: newest?.finishedAt ?? null,
    contributions: row.contributions,
    profiles: row.profiles,
    history: (await d.store.scoreHistory(connectorId, hostId)).map((p) => (p.band === NOT_ASSESSED ? { ...p, score: null } : p)),
    bandEdges: [...(config.ok ? config.value.bands : defaultRiskConfig.bands)] as [number, number, number, number],
  };
}
