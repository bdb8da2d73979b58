/**
 * `northbound simulate --edr`: the Defender (with Entra ID) and Falcon simulators next to the
 * management node simulator, with one tenant each, so `northbound edr poll` and the Connectors
 * page can be tried from a shell. The simulators' certificates are written as PEM files into a
 * private temporary folder (for `--ca-file`), removed when the command stops.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Logger } from './log';
import { REQUIRED_PERMISSIONS, defenderTenant, startDefenderSimulator, startFalconSimulator } from '@northbound/simulators/demo';

export interface EdrSimulators {
  /** What the first stdout line carries under `edr`. */
  describe(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startEdrSimulators(hosts: number, logger: Logger): Promise<EdrSimulators> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'northbound-sim-'));
  const tenant = defenderTenant({ hosts, seed: 42 });
  const defender = await startDefenderSimulator({ tenants: [tenant], logger: logger.child('defender-sim') });
  const falcon = await startFalconSimulator({ regions: ['us-1', 'us-2', 'eu-1'], clients: [{ region: 'us-1', tenant: { hosts, seed: 42 } }], logger: logger.child('falcon-sim') }).catch(async (e: unknown) => {
    await defender.close();
    throw e;
  });
  const defenderCa = path.join(dir, 'defender-ca.pem');
  const falconCa = path.join(dir, 'falcon-ca.pem');
  await writeFile(defenderCa, defender.certificatePem, { mode: 0o600 });
  await writeFile(falconCa, falcon.certificatePem, { mode: 0o600 });
  const fc = falcon.clients[0]!;
  return {
    describe: () => ({
      defender: {
        idpUrl: defender.idpUrl,
        apiUrl: defender.apiUrl,
        fingerprint256: defender.fingerprint256,
        caFile: defenderCa,
        tenantId: tenant.tenantId,
        clientId: tenant.clientId,
        clientSecret: tenant.clientSecret,
        permissions: REQUIRED_PERMISSIONS,
        hosts,
      },
      falcon: {
        baseUrls: Object.fromEntries((['us-1', 'us-2', 'eu-1'] as const).map((r) => [r, falcon.baseUrl(r)])),
        fingerprint256: falcon.fingerprint256,
        caFile: falconCa,
        cloudRegion: 'us-1',
        tenantId: fc.cid,
        clientId: fc.clientId,
        clientSecret: fc.clientSecret,
        hosts,
      },
    }),
    async close() {
      await Promise.all([defender.close(), falcon.close()]);
      await rm(dir, { recursive: true, force: true });
    },
  };
}
