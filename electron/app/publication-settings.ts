/**
 * The RabbitMQ address risk scores are published to: the setting `edr.amqpUrl` (set on the
 * Settings page) or the environment variable NORTHBOUND_AMQP_URL, which overrides it (C-22).
 *
 * The address's password is a secret: the settings keep the address without it, the vault keeps
 * the password (`publication:amqp:password`), and the window only learns `hasPassword`. The
 * password is bound to the endpoint it was entered for: scheme (TLS or not), host, port and
 * virtual host. A save that changes any of them drops it unless the request types it again, so
 * a window can never point the stored password at a listener of its choosing
 * (net/trust-binding.ts does the same for connections).
 *
 * Read at every publication, so a change takes effect for the next one without a restart.
 */
import { amqpEndpointKey, amqpUrlWithoutPassword, AMQP_EXCHANGE, parseAmqpUrl, type PublicationUpdate, type PublicationView } from '../../shared/model/settings';
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { Logger } from '../log';
import { getBoundSecret, secretBinding, setBoundSecret } from '../store/bound-secret';
import type { SettingsBackend, Vault } from './ports';

export const AMQP_URL_KEY = 'edr.amqpUrl';
export const AMQP_PASSWORD_KEY = 'publication:amqp:password';
export const AMQP_URL_ENV = 'NORTHBOUND_AMQP_URL';

export interface PublicationSettingsOptions {
  settings: SettingsBackend;
  vault: Vault;
  logger: Logger;
  /** Where NORTHBOUND_AMQP_URL is read (default process.env; tests pass their own). */
  env?: Readonly<Record<string, string | undefined>>;
}

/** Where the password may be sent (store/bound-secret.ts): a reader pairs it only with the address it was stored for. */
const bindingOf = (address: Parameters<typeof amqpEndpointKey>[0]) => secretBinding(['amqp', amqpEndpointKey(address)]);

const fieldError = (path: 'amqpUrl' | 'password', message: string, hint: string) =>
  new AppError(ErrorCodes.validation, message, hint, { details: { issues: [{ path, message }] } });

/** The address with the password put in (percent-encoded: amqplib unescapes user and password). */
function withPassword(url: string, password: string): string {
  const u = new URL(url);
  u.password = encodeURIComponent(password);
  return u.toString();
}

export class PublicationSettings {
  constructor(private readonly o: PublicationSettingsOptions) {}

  /**
   * Before first use: an address stored with its password in it (written by hand, as the README
   * once said) has the password moved to the vault, and is kept without it.
   */
  async init(): Promise<void> {
    const raw = this.o.settings.get<unknown>(AMQP_URL_KEY);
    if (typeof raw !== 'string') return;
    const parsed = parseAmqpUrl(raw);
    if (!parsed.ok || !parsed.address.password) return;
    await setBoundSecret(this.o.vault, AMQP_PASSWORD_KEY, bindingOf(parsed.address), parsed.address.password);
    this.o.settings.set(AMQP_URL_KEY, amqpUrlWithoutPassword(raw));
    this.o.logger.info('the RabbitMQ password written in the settings file moved to the vault');
  }

  private envUrl(): string | undefined {
    return (this.o.env ?? process.env)[AMQP_URL_ENV]?.trim() || undefined;
  }

  /** The password stored for this address, or none (another address's password never is). */
  private password(address: Parameters<typeof amqpEndpointKey>[0]): Promise<string | undefined> {
    return getBoundSecret(this.o.vault, AMQP_PASSWORD_KEY, bindingOf(address), () => {
      const now = this.storedUrl();
      const parsed = now ? parseAmqpUrl(now) : undefined;
      return parsed?.ok ? bindingOf(parsed.address) : undefined;
    });
  }

  private storedUrl(): string | undefined {
    const raw = this.o.settings.get<unknown>(AMQP_URL_KEY);
    return typeof raw === 'string' && raw.trim() ? raw.trim() : undefined;
  }

  /** Whether publication to RabbitMQ is configured at all (the publisher's target list is built from it). */
  configured(): boolean {
    return Boolean(this.envUrl() ?? this.storedUrl());
  }

  /** The address without its password (the Fleet card's broker check, C-89); undefined when none is set. */
  address(): string | undefined {
    const url = this.envUrl() ?? this.storedUrl();
    return url && parseAmqpUrl(url).ok ? amqpUrlWithoutPassword(url) : undefined;
  }

  /** The address the next publication connects to, password included; throws in words when there is none usable. */
  async connectUrl(): Promise<string> {
    const env = this.envUrl();
    if (env) {
      const parsed = parseAmqpUrl(env);
      if (!parsed.ok) throw new Error(`${AMQP_URL_ENV} is not a usable RabbitMQ address: ${parsed.message}`);
      return env;
    }
    const stored = this.storedUrl();
    if (!stored) throw new Error('No RabbitMQ address is set.');
    const parsed = parseAmqpUrl(stored);
    if (!parsed.ok) throw new Error(`The RabbitMQ address in the settings is not usable: ${parsed.message}`);
    const password = await this.password(parsed.address);
    return password ? withPassword(stored, password) : stored;
  }

  async view(): Promise<PublicationView> {
    const env = this.envUrl();
    const raw = this.o.settings.get<unknown>(AMQP_URL_KEY);
    const stored = this.storedUrl();
    const storedAddress = stored ? parseAmqpUrl(stored) : undefined;
    const active = env ? 'environment' : stored ? 'settings' : 'none';
    let problem: string | undefined;
    if (env) {
      const parsed = parseAmqpUrl(env);
      if (!parsed.ok) problem = `${AMQP_URL_ENV} is not a usable address: ${parsed.message}`;
    } else if (stored) {
      const parsed = parseAmqpUrl(stored);
      if (!parsed.ok) problem = `The stored address is not usable: ${parsed.message}`;
    } else if (raw !== undefined && typeof raw !== 'string') {
      problem = `The setting ${AMQP_URL_KEY} in the settings file is not text; it is ignored. Enter the address again.`;
    }
    return {
      amqp: {
        url: stored ? amqpUrlWithoutPassword(stored) : null,
        hasPassword: storedAddress?.ok ? (await this.password(storedAddress.address)) !== undefined : false,
        environmentUrl: env ? amqpUrlWithoutPassword(env) : null,
        active,
        ...(problem ? { problem } : {}),
        exchange: AMQP_EXCHANGE,
      },
    };
  }

  /** Sets or removes the stored address; see the file comment for what happens to the password. */
  async update(req: PublicationUpdate): Promise<PublicationView> {
    const { vault, settings } = this.o;
    if (!req.amqpUrl) {
      if (req.password) throw fieldError('amqpUrl', 'Enter the address this password is for.', 'A password is kept only with a RabbitMQ address.');
      settings.delete(AMQP_URL_KEY);
      await vault.delete(AMQP_PASSWORD_KEY);
      this.o.logger.info('RabbitMQ address removed');
      return this.view();
    }
    const parsed = parseAmqpUrl(req.amqpUrl);
    if (!parsed.ok) throw fieldError('amqpUrl', parsed.message, 'Correct the address and save again.');
    const next = parsed.address;
    if (next.password && req.password) {
      throw fieldError('password', 'The address already holds a password: type it in one place.', 'Remove “:password” from the address, or leave the password field empty.');
    }
    const typed = req.password ?? (next.password || undefined);
    if (typed && !next.username) {
      throw fieldError('amqpUrl', 'Write the user name in the address for this password, e.g. amqp://user@host:5672/.', 'RabbitMQ signs in with a user name and its password.');
    }
    const previous = this.storedUrl();
    const before = previous ? parseAmqpUrl(previous) : undefined;
    const sameEndpoint = before?.ok === true && amqpEndpointKey(before.address) === amqpEndpointKey(next);

    if (typed) await setBoundSecret(vault, AMQP_PASSWORD_KEY, bindingOf(next), typed);
    // A password without a user is of no use (amqplib then signs in as nobody).
    else if (req.forgetPassword || !sameEndpoint || !next.username) await vault.delete(AMQP_PASSWORD_KEY);
    settings.set(AMQP_URL_KEY, amqpUrlWithoutPassword(req.amqpUrl));
    this.o.logger.info('RabbitMQ address saved', {
      endpoint: amqpEndpointKey(next),
      passwordKept: !typed && !req.forgetPassword && sameEndpoint && Boolean(next.username),
      passwordTyped: Boolean(typed),
    });
    return this.view();
  }
}
