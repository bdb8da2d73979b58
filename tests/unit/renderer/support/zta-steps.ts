/**
 * A real main with a Defender and a Falcon tenant (the project's simulators) polled once each, for
 * the ZTA dashboard's tests; and the steps those tests share.
 */
import { screen } from '@testing-library/react';
import type { ConnectorView } from '../../../../shared/model/connector';
import { MainBridge, type DefenderSim, type FalconSim } from './main-bridge';
import type { StartOptions } from './main-worker';

/** Scheduled polls wait an hour: only "Poll now" starts a cycle. */
export const noPolls = { app: { edr: { firstPullDelayMs: 3_600_000, publishDelayMs: 20 } } };

export interface ScoredMain {
  main: MainBridge;
  defender: ConnectorView;
  falcon: ConnectorView;
  defenderSim: DefenderSim;
  falconSim: FalconSim;
}

/** Registers the simulator's first Defender tenant as a connector (its CA trusted, hourly polls). */
export function saveDefender(main: MainBridge, sim: DefenderSim, name = 'Contoso Defender'): Promise<ConnectorView> {
  const t = sim.tenants[0]!;
  return main.call('connectors.save', {
    name,
    vendor: 'defender',
    tenantId: t.tenantId,
    clientId: t.clientId,
    clientSecret: t.clientSecret,
    apiUrl: sim.apiUrl,
    idpUrl: sim.idpUrl,
    tls: { mode: 'custom-ca', caName: 'defender-sim.pem', caPem: sim.certificatePem },
    pollIntervalMinutes: 60,
  });
}

/** Polls a connector once and waits for its cycle to complete. */
export async function pollOnce(main: MainBridge, connectorId: string): Promise<number> {
  const done = main.next('edr.progress', (p) => p.connectorId === connectorId && p.phase === 'completed', 30_000);
  await main.call('connectors.pollNow', { connectorId });
  return (await done).cycleId;
}

/** `app`: more options of the app under test (e.g. the alarm polling period), on top of noPolls. */
export async function scoredMain({ hosts = 60, shared = false, app = {} }: { hosts?: number; shared?: boolean; app?: StartOptions['app'] } = {}): Promise<ScoredMain> {
  const main = await MainBridge.start({ app: { ...noPolls.app, ...app, edr: { ...noPolls.app.edr, ...app.edr } } }, { shared });
  const defenderSim = await main.defender([{ hosts, seed: 5 }]);
  const falconSim = await main.falcon({ regions: ['us-1'], clients: [{ region: 'us-1', tenant: { hosts, seed: 5 } }] });
  const defender = await saveDefender(main, defenderSim, 'Contoso Defender');
  const fc = falconSim.clients[0]!;
  const falcon = await main.call('connectors.save', {
    name: 'Acme Falcon',
    vendor: 'falcon',
    tenantId: fc.cid,
    clientId: fc.clientId,
    clientSecret: fc.clientSecret,
    cloudRegion: 'us-1',
    apiUrl: falconSim.baseUrls['us-1'],
    tls: { mode: 'custom-ca', caName: 'falcon-sim.pem', caPem: falconSim.certificatePem },
    pollIntervalMinutes: 60,
  });
  await pollOnce(main, defender.id);
  await pollOnce(main, falcon.id);
  return { main, defender, falcon, defenderSim, falconSim };
}

/** The table's rows shown, by host ID. */
export const shownHosts = () => screen.queryAllByTestId('zta-row').map((r) => r.getAttribute('data-host'));
/** The table's column headers shown. */
export const shownColumns = () => screen.getAllByRole('columnheader').map((h) => h.textContent?.trim());
export const params = () => new URLSearchParams(window.location.hash.split('?')[1] ?? '');
