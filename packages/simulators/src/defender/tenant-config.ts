/** A simulated Defender tenant whose app has everything a connector needs (demo, CLI, tests, benches). */
import { randomBytes, randomUUID } from 'node:crypto';
import type { DefenderTenantConfig } from './types';

/** The five Application permissions of spec 5.3. */
export const REQUIRED_PERMISSIONS: readonly string[] = Object.freeze(['Machine.Read.All', 'Vulnerability.Read.All', 'Alert.Read.All', 'discovery.manage', 'discovery.read']);

/** A tenant with fresh ids and secret, consent given and all five permissions as Application; `over` wins. */
export function defenderTenant(over: Partial<DefenderTenantConfig> = {}): DefenderTenantConfig {
  return {
    tenantId: randomUUID(),
    clientId: randomUUID(),
    clientSecret: `Q8~${randomBytes(18).toString('base64url')}`,
    consent: true,
    permissionType: 'Application',
    permissions: [...REQUIRED_PERMISSIONS],
    hosts: 50,
    seed: 7,
    ...over,
  };
}
