/**
 * A simulated management node and the whole app (plain Node, through the contract router) with a
 * profile for it: certificate compared and pinned, signed in (OAuth by default). Inventory timing
 * is shortened (task polls every 50 ms).
 */
import { startMgmtSimulator, type MgmtSimulator, type MgmtSimulatorOptions } from '@northbound/simulators/testing';
import type { ProfileView } from '../../../shared/model/profile';
import type { InventoryTiming } from '../../../electron/inventory/service';
import { startAppHarness, type AppHarness } from '../../support/app-harness';

export interface World {
  sim: MgmtSimulator;
  h: AppHarness;
  profileId: string;
  /** Another profile for the same node, trusted and signed in. */
  addProfile(authMode: 'oauth' | 'basic'): Promise<string>;
  /** Events of one name pushed so far, payloads parsed. */
  events<T>(name: string): T[];
  close(): Promise<void>;
}

const PASSWORD = 'Adm1n-Pw-inventory-tests-4K';
const SECRET = 'Bootstrap-Secret-inventory-tests-8W';

export async function startWorld(opts: { sim?: MgmtSimulatorOptions; inventory?: InventoryTiming; authMode?: 'oauth' | 'basic' } = {}): Promise<World> {
  const sim = await startMgmtSimulator({ users: [{ username: 'admin', password: PASSWORD, role: 'admin' }], bootstrapClient: { clientSecret: SECRET }, ...opts.sim });
  const h = await startAppHarness({ app: { inventory: { pollMs: 50, ...opts.inventory } } });
  const addProfile = async (authMode: 'oauth' | 'basic') => {
    const profile = await h.call<ProfileView>('profiles.save', {
      name: `Inventory node (${authMode})`,
      host: '127.0.0.1',
      basicPort: sim.basicPort,
      oauthPort: sim.oauthPort,
      authMode,
      username: 'admin',
      password: PASSWORD,
      ...(authMode === 'oauth' ? { oauthClientId: sim.bootstrapClient.clientId, clientSecret: SECRET } : {}),
      tls: { mode: 'pinned' },
    });
    const cert = await h.call<{ fingerprint256: string }>('tls.inspect', { profileId: profile.id });
    await h.call('tls.trust', { profileId: profile.id, fingerprint256: cert.fingerprint256 });
    await h.call('session.signIn', { profileId: profile.id });
    return profile.id;
  };
  return {
    sim,
    h,
    profileId: await addProfile(opts.authMode ?? 'oauth'),
    addProfile,
    events<T>(name: string) {
      return h.pushed.map((p) => JSON.parse(p) as { event: string; payload: T }).filter((p) => p.event === name).map((p) => p.payload);
    },
    async close() {
      await h.close();
      await sim.close();
    },
  };
}

export { until } from '../../support/until';
