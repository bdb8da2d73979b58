/**
 * Falcon bench part (wired into `npm run bench` by the lead): one full poll cycle of the connector
 * against the simulator with `hosts` hosts over real HTTPS on loopback.
 */
import { FalconConnector } from '../../electron/edr/falcon';
import { startFalconSimulator } from '../../electron/simulator/falcon';

export async function benchFalcon(hosts: number): Promise<{ hosts: number; ms: number; calls: number; r429: number }> {
  const sim = await startFalconSimulator({ hosts, regions: ['us-1'] });
  const client = sim.clients[0]!;
  const connector = new FalconConnector({
    tenantId: 'bench',
    clientId: client.clientId,
    clientSecret: () => client.clientSecret,
    cloudRegion: 'us-1',
    cloudBaseUrls: sim.baseUrls(),
    tls: { mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem },
    now: () => sim.clock.now(),
  });
  try {
    const started = performance.now();
    const records = await connector.poll();
    const ms = Math.round(performance.now() - started);
    if (records.length !== hosts) throw new Error(`Falcon bench: ${records.length} of ${hosts} hosts polled.`);
    return { hosts: records.length, ms, calls: sim.stats.total(), r429: sim.stats.r429 };
  } finally {
    await connector.close();
    await sim.close();
  }
}
