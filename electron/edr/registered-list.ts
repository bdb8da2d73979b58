/**
 * The connectors as registered so far, for a registration that judges many entries in a row (the
 * bulk push: up to 10,000): `find` answers what findRegisteredConnector (shared/model/connector-secret.ts)
 * answers on `all`, the first match by ID or by vendor and tenant, from maps instead of a scan;
 * `put` adds a connector or replaces the one with its ID, in place.
 */
import { tenantOf } from '../../shared/model/connector-secret';

type Registered = { id: string; vendor: string; tenantId: string };

const tenantKey = (vendor: string, tenant: string) => JSON.stringify([vendor, tenantOf(vendor, tenant)]);

export class RegisteredList<T extends Registered> {
  private readonly byId = new Map<string, number>();
  private readonly byTenant = new Map<string, number>();

  constructor(readonly all: T[]) {
    this.index();
  }

  find(input: { id?: string | undefined; vendor: string; tenantId: string }): T | undefined {
    const at = input.id ? this.byId.get(input.id) : this.byTenant.get(tenantKey(input.vendor, input.tenantId));
    return at === undefined ? undefined : this.all[at];
  }

  put(connector: T): void {
    const at = this.byId.get(connector.id);
    if (at === undefined) {
      this.all.push(connector);
      this.add(connector, this.all.length - 1);
      return;
    }
    const before = this.all[at]!;
    this.all[at] = connector;
    // Another vendor or tenant (not one a bulk push makes): which entry is first for each may change.
    if (tenantKey(before.vendor, before.tenantId) !== tenantKey(connector.vendor, connector.tenantId)) this.index();
  }

  private index(): void {
    this.byId.clear();
    this.byTenant.clear();
    this.all.forEach((c, at) => this.add(c, at));
  }

  private add(c: T, at: number): void {
    if (!this.byId.has(c.id)) this.byId.set(c.id, at);
    const key = tenantKey(c.vendor, c.tenantId);
    if (!this.byTenant.has(key)) this.byTenant.set(key, at);
  }
}
