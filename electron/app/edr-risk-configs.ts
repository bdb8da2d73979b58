/**
 * Per-tenant scoring configuration (EdrService's scoring job): the documented defaults merged
 * with the connector's stored overrides, compiled once per distinct overrides.
 */
import { compileRiskConfig, defaultRiskConfig, tenantRiskConfig, type CompiledRiskConfig } from '../../shared/risk';
import type { StoredConnector } from '../edr/registry';
import type { Logger } from '../log';

export class RiskConfigs {
  /** Per connector: the overrides (as JSON) the compiled configuration was made from, and the last connector object seen. */
  private readonly compiled = new Map<string, { key: string; seen: StoredConnector; config: CompiledRiskConfig }>();

  constructor(private readonly logger: Logger) {}

  /**
   * Called per host, so the same connector object is answered without looking at the overrides
   * again. Stored overrides that fail validation (the save path refuses them; an older or
   * hand-edited settings file could still hold them) do not stop the cycle: the defaults are used
   * and a warning is logged once per such configuration.
   */
  of(c: StoredConnector): CompiledRiskConfig {
    const cached = this.compiled.get(c.id);
    if (cached?.seen === c) return cached.config;
    const key = JSON.stringify(c.risk ?? null);
    if (cached?.key === key) {
      cached.seen = c;
      return cached.config;
    }
    const merged = tenantRiskConfig(c.risk);
    let config: CompiledRiskConfig;
    if (merged.ok) {
      config = compileRiskConfig(merged.value);
    } else {
      this.logger.warn('stored risk scoring settings are not valid; scoring with the defaults', {
        connectorId: c.id,
        tenantId: c.tenantId,
        issues: merged.error.issues.map((i) => `risk${i.path ? `.${i.path}` : ''}: ${i.message}`),
      });
      config = compileRiskConfig(defaultRiskConfig);
    }
    this.compiled.set(c.id, { key, seen: c, config });
    return config;
  }
}
