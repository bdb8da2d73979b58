/**
 * The EDR half of the demo workspace: a Defender (with Entra ID) and a Falcon simulator started
 * inside the app with a few hundred hosts each, and one connector for each, so the Connectors
 * page and the scores have something real to show. Like the management node demo, the app holds
 * the simulators' certificates and pins them.
 *
 * The demo tenants keep their ids across restarts (taken from the connectors registered last
 * time), so reopening the demo updates the same two connectors and their score history goes on;
 * only the client secrets are new at every start.
 */
import { randomBytes } from 'node:crypto';
import type { Logger } from '../log';
import type { ConnectorRegistry } from '../edr/registry';
import type { DefenderSimulator, FalconSimulator } from '@northbound/simulators/demo';
import { loadDemoSimulators, type SimulatorsLoader } from './demo-simulators';

export const DEMO_DEFENDER_NAME = 'Demo Defender tenant';
export const DEMO_FALCON_NAME = 'Demo Falcon tenant';
const hex = (bytes: number) => randomBytes(bytes).toString('hex');
/** The demo's EDR simulators move a few hosts each poll period (10 min, the demo connectors' interval). */
export const DEMO_DRIFT_MS = 10 * 60_000;

export class DemoEdr {
  private defender: DefenderSimulator | undefined;
  private falcon: FalconSimulator | undefined;
  private entries: Record<string, unknown>[] = [];

  constructor(
    private readonly registry: ConnectorRegistry,
    private readonly logger: Logger,
    private readonly hosts = 250,
    private readonly loadSimulators: SimulatorsLoader = loadDemoSimulators,
  ) {}

  get simulators() {
    return { defender: this.defender, falcon: this.falcon };
  }

  async start(): Promise<void> {
    if (this.defender || this.falcon) return;
    // Loaded when the demo starts, not with the app (the simulators cost the poller's process memory).
    const { defenderTenant, startDefenderSimulator, startFalconSimulator } = await this.loadSimulators();
    const prior = this.registry.list();
    const priorDefender = prior.find((c) => c.vendor === 'defender' && c.name === DEMO_DEFENDER_NAME);
    const priorFalcon = prior.find((c) => c.vendor === 'falcon' && c.name === DEMO_FALCON_NAME);
    const tenant = defenderTenant({ ...(priorDefender ? { tenantId: priorDefender.tenantId, clientId: priorDefender.clientId } : {}), hosts: this.hosts, seed: 42 });
    const cid = priorFalcon && /^[0-9a-f]{32}$/.test(priorFalcon.tenantId) ? priorFalcon.tenantId : hex(16);
    const falconClientId = priorFalcon && /^[0-9a-f]{32}$/.test(priorFalcon.clientId) ? priorFalcon.clientId : hex(16);
    try {
      this.defender = await startDefenderSimulator({ tenants: [tenant], logger: this.logger.child('defender-sim'), driftEveryMs: DEMO_DRIFT_MS });
      this.falcon = await startFalconSimulator({
        regions: ['us-1'],
        clients: [{ region: 'us-1', clientId: falconClientId, tenant: { cid, hosts: this.hosts, seed: 42 } }],
        // A few hosts' assessments move each poll period, so the demo's changes and movers are not always empty (issue 22.12).
        driftEveryMs: DEMO_DRIFT_MS,
        logger: this.logger.child('falcon-sim'),
      });
    } catch (e) {
      await this.close();
      throw e;
    }
    const d = this.defender;
    const f = this.falcon;
    const fc = f.clients[0]!;
    const defenderEntry = {
      vendor: 'defender',
      name: DEMO_DEFENDER_NAME,
      enabled: priorDefender?.enabled ?? true,
      tenantId: tenant.tenantId,
      clientId: tenant.clientId,
      clientSecret: tenant.clientSecret,
      pollIntervalMinutes: priorDefender?.pollIntervalMinutes ?? 10,
      apiUrl: d.apiUrl,
      idpUrl: d.idpUrl,
      // The simulator's self-signed certificate as the CA: the same trust the bulk document carries.
      tls: { mode: 'custom-ca', caName: 'Defender simulator certificate', caPem: d.certificatePem },
    };
    const falconEntry = {
      vendor: 'falcon',
      name: DEMO_FALCON_NAME,
      enabled: priorFalcon?.enabled ?? true,
      tenantId: fc.cid,
      clientId: fc.clientId,
      clientSecret: fc.clientSecret,
      cloudRegion: 'us-1',
      pollIntervalMinutes: priorFalcon?.pollIntervalMinutes ?? 10,
      apiUrl: f.baseUrl('us-1'),
      tls: { mode: 'custom-ca', caName: 'Falcon simulator certificate', caPem: f.certificatePem },
    };
    this.entries = [defenderEntry, falconEntry];
    // What the operator changed on the demo connectors (enabled, interval, risk scoring) stays.
    await this.registry.register({ ...defenderEntry, ...(priorDefender ? { id: priorDefender.id } : {}), ...(priorDefender?.risk ? { risk: priorDefender.risk } : {}) });
    await this.registry.register({ ...falconEntry, ...(priorFalcon ? { id: priorFalcon.id } : {}), ...(priorFalcon?.risk ? { risk: priorFalcon.risk } : {}) });
  }

  /**
   * The bulk document (spec 4) the demo management node serves for its tenants: the two demo
   * connectors, so "Import connectors" from the demo node has something real to register.
   */
  bulkDocument(): { version: 1; connectors: Record<string, unknown>[] } {
    return { version: 1, connectors: this.entries.map((e) => ({ ...e })) };
  }

  async close(): Promise<void> {
    const [d, f] = [this.defender, this.falcon];
    this.defender = undefined;
    this.falcon = undefined;
    await Promise.all([d?.close(), f?.close()]);
  }
}
