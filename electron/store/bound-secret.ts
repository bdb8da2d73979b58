/**
 * A secret kept together with the endpoint it was entered for (docs/architecture.md, "Where
 * secrets are looked up"). The vault entry holds the secret and its binding (a digest of the
 * endpoint and trust) in one value, written in one `set`: a reader asks with the binding of the
 * endpoint it is about to call and gets the secret only when both match. However saves and reads
 * interleave (a cycle still running against an endpoint the connector has left, a sign-in held by
 * a server), nothing can pair a secret with an endpoint it was not stored for.
 */
import { createHash } from 'node:crypto';
import { registerSecret } from '../log';

/** The part of the vault this needs. */
export interface SecretVault {
  get(key: string): Promise<string | undefined>;
  set(key: string, value: string): Promise<void>;
}

const PREFIX = 'northbound-bound-secret:v1:';
const DIGEST = /^[0-9a-f]{64}$/;

/** The binding of an endpoint: a digest of everything that decides where a secret is sent (and how it is trusted). */
export function secretBinding(parts: readonly unknown[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('hex');
}

/** The vault value that holds `secret` bound to `binding` (for a vault write of several entries at once). */
export function boundSecretValue(binding: string, secret: string): string {
  if (!DIGEST.test(binding)) throw new Error('a secret binding is a SHA-256 digest');
  registerSecret(secret);
  return `${PREFIX}${binding}:${secret}`;
}

export async function setBoundSecret(vault: SecretVault, key: string, binding: string, secret: string): Promise<void> {
  await vault.set(key, boundSecretValue(binding, secret));
}

/**
 * The secret stored under `key` for `binding`, or undefined when none is, or it was stored for
 * another endpoint. An entry written before bindings existed (a bare secret) belongs to the
 * endpoint the caller's `legacyBinding` names: the one registered now, which every save that
 * moved the endpoint would have replaced (a move always carries a new secret).
 */
export async function getBoundSecret(vault: SecretVault, key: string, binding: string, legacyBinding?: () => string | undefined): Promise<string | undefined> {
  const value = await vault.get(key);
  if (value === undefined) return undefined;
  if (!value.startsWith(PREFIX)) return legacyBinding?.() === binding ? value : undefined;
  const rest = value.slice(PREFIX.length);
  const cut = rest.indexOf(':');
  if (cut < 0 || rest.slice(0, cut) !== binding) return undefined;
  const secret = rest.slice(cut + 1);
  registerSecret(secret);
  return secret;
}
