/**
 * Falcon bench part (wired into `npm run bench` by the lead): one full poll cycle of the connector
 * against the simulator with `hosts` hosts over real HTTPS on loopback. The simulator runs in a
 * worker thread when the runtime can load it there (tsx can), else in this thread.
 */
import { FalconConnector } from '../../electron/edr/falcon';
import { startFalconSimulator } from '../../electron/simulator/falcon';
import { startFalconSimulatorInWorker, type FalconWorkerSimulator } from '../../electron/simulator/falcon/worker';

async function startSim(hosts: number): Promise<FalconWorkerSimulator> {
  try {
    return await startFalconSimulatorInWorker({ hosts, regions: ['us-1'] });
  } catch {
    const sim = await startFalconSimulator({ hosts, regions: ['us-1'] });
    return {
      baseUrls: sim.baseUrls(),
      fingerprint256: sim.fingerprint256,
      certificatePem: sim.certificatePem,
      clients: sim.clients,
      stats: async () => ({ total: sim.stats.total(), r429: sim.stats.r429, calls: { ...sim.stats.calls }, maxInFlight: sim.stats.maxInFlight }),
      close: () => sim.close(),
    };
  }
}

export async function benchFalcon(hosts: number): Promise<{ hosts: number; ms: number; calls: number; r429: number }> {
  const sim = await startSim(hosts);
  const client = sim.clients[0]!;
  const connector = new FalconConnector({
    tenantId: 'bench',
    clientId: client.clientId,
    clientSecret: () => client.clientSecret,
    cloudRegion: 'us-1',
    cloudBaseUrls: sim.baseUrls,
    tls: { mode: 'pinned', fingerprint256: sim.fingerprint256, certificatePem: sim.certificatePem },
  });
  try {
    const started = performance.now();
    const records = await connector.poll();
    const ms = Math.round(performance.now() - started);
    if (records.length !== hosts) throw new Error(`Falcon bench: ${records.length} of ${hosts} hosts polled.`);
    const stats = await sim.stats();
    return { hosts: records.length, ms, calls: stats.total, r429: stats.r429 };
  } finally {
    await connector.close();
    await sim.close();
  }
}
