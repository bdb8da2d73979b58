/**
 * Connection profiles: kept in the settings store without secrets; passwords and client
 * secrets live in the vault under `profile:<id>:...`. The renderer only ever gets `toView()`.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { PROFILE_NAME_TAKEN, ProfileView, TlsTrust, profileNameTaken, type TlsTrustInput } from '../../shared/model/profile';
import { resolveTrust, sameTrust, trustKey } from '../net/trust-binding';
import { getBoundSecret, secretBinding, setBoundSecret } from '../store/bound-secret';
import { OAuthClient } from '../../shared/model/oauth-client';
import type { SettingsBackend, Vault } from './ports';

/** A profile as stored: the view's fields less the secret flags, with the full trust (pinned certificate). */
export const StoredProfile = ProfileView.omit({ hasPassword: true, hasClientSecret: true, tls: true }).extend({ tls: TlsTrust });
export type StoredProfile = z.infer<typeof StoredProfile>;

/** A ProfileInput after zod parsing (defaults applied). */
export interface ParsedProfileInput {
  id?: string | undefined;
  name: string;
  host: string;
  basicPort: number;
  oauthPort: number;
  authMode: 'basic' | 'oauth';
  username: string;
  oauthClientId?: string | undefined;
  apiNamespace?: string | undefined;
  tls: TlsTrustInput;
  password?: string | undefined;
  clientSecret?: string | undefined;
}

const KEY = 'profiles';
const secretKey = (id: string, which: 'password' | 'clientSecret') => `profile:${id}:${which}`;
type SecretName = 'password' | 'clientSecret';
/** Where a profile's secrets may be sent: its host, its ports and its trust (store/bound-secret.ts). */
const bindingOf = (p: StoredProfile) => secretBinding(['profile', p.host, p.basicPort, p.oauthPort, trustKey(p.tls)]);

export class ProfileRepository {
  constructor(
    private readonly settings: SettingsBackend,
    private readonly vault: Vault,
    private readonly now: () => Date = () => new Date(),
  ) {}

  list(): StoredProfile[] {
    const raw = this.settings.get<unknown[]>(KEY) ?? [];
    return raw.flatMap((r) => {
      const p = StoredProfile.safeParse(r);
      return p.success ? [p.data] : [];
    });
  }

  get(id: string): StoredProfile {
    const p = this.list().find((x) => x.id === id);
    if (!p) throw new AppError(ErrorCodes.notFound, 'That connection no longer exists.', 'Pick another connection from the list.');
    return p;
  }

  private write(all: StoredProfile[]): void {
    this.settings.set(KEY, all);
  }

  /**
   * Creates or updates a profile. `opts.trust` is trust main itself decided (the demo's pinned
   * simulator); a request's own `tls` can never carry a pin.
   */
  async save(input: ParsedProfileInput, opts: { demo?: boolean; trust?: TlsTrust } = {}): Promise<StoredProfile> {
    const all = this.list();
    const existing = input.id ? all.find((p) => p.id === input.id) : undefined;
    if (input.id && !existing) throw new AppError(ErrorCodes.notFound, 'That connection no longer exists.', 'Reload the list and try again.');
    if (profileNameTaken(all, input.name, existing?.id)) {
      throw new AppError(ErrorCodes.validation, `A connection named "${input.name}" already exists.`, 'Choose another name.', {
        details: { issues: [{ path: 'name', message: PROFILE_NAME_TAKEN }] },
      });
    }
    const now = this.now().toISOString();
    const id = existing?.id ?? randomUUID();
    const sameEndpoint = !!existing && existing.host === input.host && existing.basicPort === input.basicPort && existing.oauthPort === input.oauthPort;
    // A pin is only ever set by `pin()` after the operator compared the fingerprint; a request
    // cannot carry one. It survives edits that keep the same endpoint.
    const tls = opts.trust ?? resolveTrust(input.tls, existing?.tls, sameEndpoint);
    // The stored secrets were entered for this endpoint and this trust: a request that moves
    // either never gets them sent elsewhere. They are dropped; the operator enters them again.
    const rebound = !!existing && (!sameEndpoint || !sameTrust(existing.tls, tls));
    const stored: StoredProfile = {
      id,
      name: input.name,
      host: input.host,
      basicPort: input.basicPort,
      oauthPort: input.oauthPort,
      authMode: input.authMode,
      username: input.username,
      ...(input.oauthClientId ? { oauthClientId: input.oauthClientId } : {}),
      ...(input.apiNamespace ? { apiNamespace: input.apiNamespace } : {}),
      tls,
      demo: opts.demo ?? existing?.demo ?? false,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    if (rebound) await this.vault.deletePrefix(`profile:${id}:`);
    await this.applySecret(stored, 'password', input.password);
    await this.applySecret(stored, 'clientSecret', input.clientSecret);
    this.write(existing ? all.map((p) => (p.id === id ? stored : p)) : [...all, stored]);
    return stored;
  }

  private async applySecret(p: StoredProfile, which: SecretName, value: string | undefined): Promise<void> {
    if (value === undefined) return;
    if (value === '') await this.vault.delete(secretKey(p.id, which));
    else await setBoundSecret(this.vault, secretKey(p.id, which), bindingOf(p), value);
  }

  /** A secret stored for this profile's endpoint and trust as `p` gives them (none once the profile moved). */
  private secret(p: StoredProfile, which: SecretName): Promise<string | undefined> {
    return getBoundSecret(this.vault, secretKey(p.id, which), bindingOf(p), () => {
      const now = this.list().find((x) => x.id === p.id);
      return now && bindingOf(now);
    });
  }

  /**
   * Pins the certificate the operator compared. The first pin of a connection completes the
   * trust its secrets were entered for; trusting another certificate than the one pinned, or
   * pinning a connection that trusted something else, changes it, and the secrets are dropped.
   */
  async pin(id: string, fingerprint256: string, certificatePem: string): Promise<StoredProfile> {
    const p = this.get(id);
    const tls: TlsTrust = { mode: 'pinned', fingerprint256, certificatePem };
    const firstPin = p.tls.mode === 'pinned' && !p.tls.fingerprint256;
    const updated: StoredProfile = { ...p, tls, updatedAt: this.now().toISOString() };
    if (firstPin) {
      // The secrets were entered for this pin: they move to the binding that names its fingerprint.
      for (const which of ['password', 'clientSecret'] as const) {
        const value = await this.secret(p, which);
        if (value !== undefined) await setBoundSecret(this.vault, secretKey(id, which), bindingOf(updated), value);
      }
    } else if (!sameTrust(p.tls, tls)) await this.vault.deletePrefix(`profile:${id}:`);
    this.write(this.list().map((x) => (x.id === id ? updated : x)));
    return updated;
  }

  async delete(id: string): Promise<boolean> {
    const all = this.list();
    if (!all.some((p) => p.id === id)) return false;
    this.write(all.filter((p) => p.id !== id));
    await this.vault.deletePrefix(`profile:${id}:`);
    this.settings.delete(`oauthClients.${id}`);
    return true;
  }

  /** The secrets of the profile as `p` gives it: a session asks with the profile it was built for. */
  secrets(p: StoredProfile) {
    return {
      getPassword: () => this.secret(p, 'password'),
      getClientSecret: () => this.secret(p, 'clientSecret'),
    };
  }

  async toView(p: StoredProfile): Promise<ProfileView> {
    const tls: ProfileView['tls'] =
      p.tls.mode === 'pinned' ? { mode: 'pinned', ...(p.tls.fingerprint256 ? { fingerprint256: p.tls.fingerprint256 } : {}) } : p.tls.mode === 'custom-ca' ? { mode: 'custom-ca', ...(p.tls.caName ? { caName: p.tls.caName } : {}) } : { mode: 'system' };
    return {
      id: p.id,
      name: p.name,
      host: p.host,
      basicPort: p.basicPort,
      oauthPort: p.oauthPort,
      authMode: p.authMode,
      username: p.username,
      ...(p.oauthClientId ? { oauthClientId: p.oauthClientId } : {}),
      ...(p.apiNamespace ? { apiNamespace: p.apiNamespace } : {}),
      tls,
      hasPassword: (await this.secret(p, 'password')) !== undefined,
      hasClientSecret: (await this.secret(p, 'clientSecret')) !== undefined,
      demo: p.demo,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt,
    };
  }

  /** OAuth clients created or updated from this console, per profile (spec decision C-3). */
  knownClients(id: string): OAuthClient[] {
    const raw = this.settings.get<unknown[]>(`oauthClients.${id}`) ?? [];
    return raw.flatMap((r) => {
      const c = OAuthClient.safeParse(r);
      return c.success ? [c.data] : [];
    });
  }

  recordClient(id: string, client: OAuthClient): void {
    const list = this.knownClients(id).filter((c) => c.client_id !== client.client_id);
    // Parse again so that a secret can never slip into the settings file.
    this.settings.set(`oauthClients.${id}`, [...list, OAuthClient.parse(client)]);
  }
}
