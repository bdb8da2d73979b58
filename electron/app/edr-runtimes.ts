/**
 * The vendor clients of the connectors (EdrService's runtime job): one per connector, made again
 * when what it was made from changes (saved again, other vendor, tenant, client, URL, region, TLS).
 */
import type { StoredConnector } from '../edr/registry';
import type { ConnectorRuntime } from '../edr/scheduler';

export class ConnectorRuntimes {
  private readonly runtimes = new Map<string, { key: string; runtime: ConnectorRuntime }>();

  constructor(private readonly create: (c: StoredConnector) => ConnectorRuntime) {}

  of(c: StoredConnector): ConnectorRuntime {
    const key = JSON.stringify([c.updatedAt, c.vendor, c.tenantId, c.clientId, c.apiUrl, c.cloudRegion, c.tls]);
    const cached = this.runtimes.get(c.id);
    if (cached?.key === key) return cached.runtime;
    void cached?.runtime.close?.();
    const runtime = this.create(c);
    this.runtimes.set(c.id, { key, runtime });
    return runtime;
  }

  async closeAll(): Promise<void> {
    for (const { runtime } of this.runtimes.values()) await runtime.close?.().catch(() => undefined);
    this.runtimes.clear();
  }
}
