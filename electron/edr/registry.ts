/**
 * The connector registry: one connector per (vendor, tenant). Both registration paths of spec 4
 * — one tenant at a time from the UI, and a bulk push for all tenants — converge into
 * `register()`. Secrets go to the vault; settings keep the rest, including the tenant's risk
 * scoring overrides (`risk`, spec 2.3): a registration without `risk` stores none (defaults).
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { BulkConnectorDocument, ConnectorInput, ConnectorView, FalconRegion, RiskOverridesInput, compactRiskOverrides, notAssessedOf } from '../../shared/model/connector';
import { CLIENT_SECRET_MESSAGES, clientSecretNeed, connectorEndpointKey } from '../../shared/model/connector-secret';
import { TlsTrust } from '../../shared/model/profile';
import { resolveTrust, sameTrust, trustKey } from '../net/trust-binding';
import { boundSecretValue, getBoundSecret, secretBinding } from '../store/bound-secret';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { issuesToError } from '../../shared/validation/issues-to-error';
import type { SettingsBackend, Vault } from '../store/ports';
import { defaultConnectorName } from './connector-ids';
import { RegisteredList } from './registered-list';

export const StoredConnector = ConnectorView.omit({ hasClientSecret: true }).extend({ tls: TlsTrust });
export type StoredConnector = z.infer<typeof StoredConnector>;

export interface BulkResult {
  index: number;
  ok: boolean;
  id?: string;
  /** The connector's name (as registered, or as the refused entry gives it). */
  name?: string;
  vendor?: string;
  tenantId?: string;
  action?: 'created' | 'updated';
  error?: { message: string; issues: Array<{ path: string; message: string }> };
}

const KEY = 'edrConnectors';
/** The vault key of a connector's client secret. */
export const connectorSecretKey = (id: string) => `connector:${id}:clientSecret`;
const secretKey = connectorSecretKey;
/** Where a connector's secret may be sent: its endpoint and its trust (store/bound-secret.ts). */
export const connectorSecretBinding = (c: Pick<StoredConnector, 'vendor' | 'tenantId' | 'cloudRegion' | 'apiUrl' | 'idpUrl' | 'tls'>) => secretBinding(['edr-connector', connectorEndpointKey(c), trustKey(c.tls)]);
const bindingOf = connectorSecretBinding;

export interface RegistryOptions {
  /**
   * Whether a secret is stored for the connector `id` bound to `binding`, when the vault cannot be
   * read back (a team's connectors: the secrets are sealed to the workers, fleet-connectors.ts).
   */
  hasSecret?: (id: string, binding: string) => Promise<boolean>;
}
/** A validated registration, not yet stored. */
interface Registration {
  connector: StoredConnector;
  action: 'created' | 'updated';
  /** The secret typed with it, if any (it replaces the stored one). */
  clientSecret?: string;
  /** It moves a registered connector to another endpoint or trust. */
  moved: boolean;
}
const secretIssue = (message: string, hint: string) => new AppError(ErrorCodes.validation, message, hint, { details: { issues: [{ path: 'clientSecret', message }] } });


export class ConnectorRegistry {
  private readonly listeners = new Set<(ids: string[]) => void>();
  private readonly moveListeners = new Set<(id: string) => void>();

  constructor(
    private readonly settings: SettingsBackend,
    private readonly vault: Vault,
    private readonly now: () => Date = () => new Date(),
    private readonly opts: RegistryOptions = {},
  ) {}

  onChange(listener: (ids: string[]) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Called before a save that moves a connector to another endpoint or trust stores anything:
   * the scheduler cancels the connector's running cycle there.
   */
  onMove(listener: (id: string) => void): () => void {
    this.moveListeners.add(listener);
    return () => this.moveListeners.delete(listener);
  }

  list(): StoredConnector[] {
    return (this.settings.get<unknown[]>(KEY) ?? []).flatMap((r) => {
      const p = StoredConnector.safeParse(r);
      return p.success ? [p.data] : [];
    });
  }

  get(id: string): StoredConnector {
    const c = this.list().find((x) => x.id === id);
    if (!c) throw new AppError(ErrorCodes.notFound, 'That connector no longer exists.', 'Reload the connectors list.');
    return c;
  }

  async view(c: StoredConnector): Promise<ConnectorView> {
    const { tls: _tls, ...rest } = c;
    return { ...rest, hasClientSecret: await this.hasSecret(c) };
  }

  /**
   * The secret stored for this connector's endpoint and trust, as `c` gives them: a runtime asks
   * with the connector it was built for, so once the connector moved it finds none.
   */
  getSecret(c: StoredConnector): Promise<string | undefined> {
    return getBoundSecret(this.vault, secretKey(c.id), bindingOf(c), () => {
      const now = this.list().find((x) => x.id === c.id);
      return now && bindingOf(now);
    });
  }

  private async hasSecret(c: StoredConnector): Promise<boolean> {
    if (this.opts.hasSecret) return this.opts.hasSecret(c.id, bindingOf(c));
    return (await this.getSecret(c)) !== undefined;
  }

  /**
   * Validates and stores one connector; the single entry point of both registration paths.
   * The stored secret is bound to the connector's endpoint (vendor, tenant, region, API and
   * identity provider addresses) and trust: a registration that changes either needs the secret
   * again (the UI) or is refused (the bulk push never moves a connector). A request's `tls` never carries a
   * pin.
   */
  async register(input: unknown, source: 'ui' | 'bulk' = 'ui'): Promise<{ connector: StoredConnector; action: 'created' | 'updated' }> {
    const registered = new RegisteredList(this.list());
    const plan = await this.plan(input, source, registered, (c) => this.hasSecret(c));
    registered.put(plan.connector);
    await this.apply(registered.all, [plan]);
    return { connector: plan.connector, action: plan.action };
  }

  /**
   * Validates one registration against the connectors `registered` so far and answers
   * what to store; stores nothing. `hasSecret` tells whether a connector already has a secret (for its endpoint).
   */
  private async plan(input: unknown, source: 'ui' | 'bulk', registered: RegisteredList<StoredConnector>, hasSecret: (c: StoredConnector) => Promise<boolean>): Promise<Registration> {
    const parsed = ConnectorInput.safeParse(input);
    if (!parsed.success) {
      const shape = issuesToError(parsed.error.issues, 'connector');
      throw new AppError(shape.code, shape.message, 'Correct the highlighted fields and save again.', { details: shape.details ?? {} });
    }
    const c = parsed.data;
    // One connector per vendor and tenant: a second registration updates the first.
    const existing = registered.find(c);
    if (c.id && !existing) throw new AppError(ErrorCodes.notFound, 'That connector no longer exists.', 'Reload the connectors list.');
    if (existing && existing.vendor !== c.vendor) throw new AppError(ErrorCodes.validation, 'A connector cannot change its vendor.', 'Add a new connector for the other vendor.');
    const id = existing?.id ?? randomUUID();
    const cloudRegion = c.vendor === 'falcon' ? FalconRegion.parse(c.cloudRegion) : undefined;
    const next = { vendor: c.vendor, tenantId: c.tenantId, cloudRegion, apiUrl: c.apiUrl, idpUrl: c.vendor === 'defender' ? c.idpUrl : undefined };
    const sameEndpoint = !!existing && connectorEndpointKey(existing) === connectorEndpointKey(next);
    const tls = resolveTrust(c.tls, existing?.tls, sameEndpoint);
    const rebound = !!existing && (!sameEndpoint || !sameTrust(existing.tls, tls));
    if (rebound && source === 'bulk') {
      throw new AppError(
        ErrorCodes.validation,
        `The connector for tenant ${existing.tenantId} is registered with another ${sameEndpoint ? 'certificate trust' : 'address, region or tenant'}; the bulk push never moves a connector.`,
        'Change the address or trust on the Connectors page (and enter the secret again there), or delete the connector first.',
        { details: { issues: [{ path: sameEndpoint ? 'tls' : 'apiUrl', message: 'A bulk push cannot move an existing connector to another endpoint or trust.' }] } },
      );
    }
    // The same rule the connector form applies before sending (shared/model/connector-secret.ts).
    const need = clientSecretNeed({
      registered: existing && { ...existing, hasClientSecret: await hasSecret(existing) },
      next,
      trustChanged: !!existing && !sameTrust(existing.tls, tls),
      secretGiven: !!c.clientSecret,
    });
    if (need) {
      throw secretIssue(
        CLIENT_SECRET_MESSAGES[need],
        need === 'missing' ? 'Enter the client secret generated by the vendor.' : 'A stored secret is only ever sent to the address and certificate it was entered for.',
      );
    }
    const at = this.now().toISOString();
    const risk = compactRiskOverrides(c.risk);
    const stored: StoredConnector = {
      id,
      vendor: c.vendor,
      name: c.name || existing?.name || defaultConnectorName(c),
      enabled: c.enabled,
      tenantId: c.tenantId,
      clientId: c.clientId,
      ...(cloudRegion ? { cloudRegion } : {}),
      pollIntervalMinutes: c.pollIntervalMinutes,
      ...(c.apiUrl ? { apiUrl: c.apiUrl } : {}),
      ...(c.vendor === 'defender' && c.idpUrl ? { idpUrl: c.idpUrl } : {}),
      tls,
      ...(risk ? { risk } : {}),
      notAssessed: c.notAssessed ?? notAssessedOf(existing ?? {}),
      source,
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
    };
    return { connector: stored, action: existing ? 'updated' : 'created', ...(c.clientSecret ? { clientSecret: c.clientSecret } : {}), moved: rebound };
  }

  /**
   * Stores validated registrations: their secrets, then the connector list `next` (which holds
   * them) in one settings write, then one notification naming every connector they touched.
   */
  private async apply(next: StoredConnector[], plans: readonly Registration[]): Promise<void> {
    if (plans.length === 0) return;
    // What still runs against an endpoint a connector leaves is cancelled before anything is stored.
    for (const p of plans) if (p.moved) for (const l of this.moveListeners) l(p.connector.id);
    // A rebound registration always carries a new secret (checked in plan()); it replaces the old one,
    // bound to the new endpoint. All in one vault write; of two registrations of one connector the later one's secret wins.
    await this.vault.setMany(plans.flatMap((p) => (p.clientSecret ? [[secretKey(p.connector.id), boundSecretValue(bindingOf(p.connector), p.clientSecret)] as const] : [])));
    this.settings.set(KEY, next);
    const ids = [...new Set(plans.map((p) => p.connector.id))];
    for (const l of this.listeners) l(ids);
  }

  /**
   * The bulk push: every entry validated on its own, against the connectors as the entries before
   * it left them; one bad entry does not stop the rest. What passed is stored at the end, in one
   * settings write and one vault write.
   */
  async registerBulk(document: unknown): Promise<BulkResult[]> {
    const doc = BulkConnectorDocument.safeParse(document);
    if (!doc.success) {
      const shape = issuesToError(doc.error.issues, 'connector document');
      throw new AppError(shape.code, shape.message, 'The document must be {"version":1,"connectors":[...]}.', { details: shape.details ?? {} });
    }
    const registered = new RegisteredList(this.list());
    const plans: Registration[] = [];
    const secretIds = new Set<string>();
    const hasSecret = async (c: StoredConnector) => secretIds.has(c.id) || this.hasSecret(c);
    const results: BulkResult[] = [];
    for (const [index, entry] of doc.data.connectors.entries()) {
      try {
        const plan = await this.plan(entry, 'bulk', registered, hasSecret);
        const { connector, action } = plan;
        plans.push(plan);
        registered.put(connector);
        if (plan.clientSecret) secretIds.add(connector.id);
        results.push({ index, ok: true, id: connector.id, name: connector.name, vendor: connector.vendor, tenantId: connector.tenantId, action });
      } catch (e) {
        const err = e instanceof AppError ? e : new AppError(ErrorCodes.internal, String(e), '');
        const issues = (err.details?.issues as Array<{ path: string; message: string }> | undefined) ?? [];
        const raw = entry as Record<string, unknown> | null;
        const text = (k: string) => (typeof raw?.[k] === 'string' && raw[k].trim() ? { [k]: raw[k].trim().slice(0, 128) } : {});
        results.push({ index, ok: false, ...text('name'), ...text('vendor'), ...text('tenantId'), error: { message: err.message, issues } });
      }
    }
    await this.apply(registered.all, plans);
    return results;
  }

  /**
   * Replaces a connector's risk scoring overrides only (the what-if's Save): validated as a
   * connector's `risk` is, stored without touching its endpoint, secret, schedule or `updatedAt`.
   */
  setRisk(id: string, risk: unknown): StoredConnector {
    const parsed = RiskOverridesInput.optional().safeParse(risk);
    if (!parsed.success) {
      const shape = issuesToError(parsed.error.issues.map((i) => ({ ...i, path: ['risk', ...i.path] })), 'risk scoring settings');
      throw new AppError(shape.code, shape.message, 'Correct the highlighted fields and save again.', { details: shape.details ?? {} });
    }
    const all = this.list();
    const c = this.get(id);
    const compact = compactRiskOverrides(parsed.data);
    const { risk: _old, ...rest } = c;
    const updated: StoredConnector = { ...rest, ...(compact ? { risk: compact } : {}) };
    this.settings.set(KEY, all.map((x) => (x.id === id ? updated : x)));
    for (const l of this.listeners) l([id]);
    return updated;
  }

  async setEnabled(id: string, enabled: boolean): Promise<StoredConnector> {
    const all = this.list();
    const c = this.get(id);
    const updated = { ...c, enabled, updatedAt: this.now().toISOString() };
    this.settings.set(KEY, all.map((x) => (x.id === id ? updated : x)));
    for (const l of this.listeners) l([id]);
    return updated;
  }

  async remove(id: string): Promise<boolean> {
    const all = this.list();
    if (!all.some((x) => x.id === id)) return false;
    this.settings.set(KEY, all.filter((x) => x.id !== id));
    await this.vault.delete(secretKey(id));
    for (const l of this.listeners) l([id]);
    return true;
  }
}
