/**
 * The console's own settings as the window sees them: appearance and time display (plain UI
 * preferences, stored as they are), and the RabbitMQ address that risk scores are published to
 * (its password is a secret: main keeps it in the vault and the window only learns that one is
 * stored).
 */
import { z } from 'zod';
import { ACTIVE_SEVERITIES } from './alarms';

export const Theme = z.enum(['system', 'light', 'dark']);
export type Theme = z.infer<typeof Theme>;

/** Times are shown in the computer's time zone, or in UTC (C-21). */
export const TimeZonePreference = z.enum(['local', 'utc']);
export type TimeZonePreference = z.infer<typeof TimeZonePreference>;

/** How long risk history is kept (EDR-H4): whole days, 1 day to 10 years. */
export const RiskHistoryDays = z
  .number({ error: 'Enter the number of days to keep risk history.' })
  .int('Keep risk history for a whole number of days.')
  .min(1, 'Keep risk history for at least 1 day.')
  .max(3650, 'Keep risk history for at most 3650 days (10 years).');

/** How long alarm history is kept (MN-AL11): whole days, 1 day to 10 years. */
export const AlarmHistoryDays = z
  .number({ error: 'Enter the number of days to keep alarm history.' })
  .int('Keep alarm history for a whole number of days.')
  .min(1, 'Keep alarm history for at least 1 day.')
  .max(3650, 'Keep alarm history for at most 3650 days (10 years).');

/**
 * Which severities of a new alarm change notify the operator (C-31): critical by default; each
 * severity can be muted or chosen. Desktop: the system's notifications from main; browser mode:
 * the browser's, once the operator allowed them.
 */
export const AlarmNotify = z
  .array(z.enum(ACTIVE_SEVERITIES, { error: 'Choose critical, major, minor, warning or indeterminate.' }))
  .max(ACTIVE_SEVERITIES.length)
  .transform((list) => ACTIVE_SEVERITIES.filter((s) => list.includes(s)));

export const Settings = z.object({ theme: Theme, timeZone: TimeZonePreference, riskHistoryDays: RiskHistoryDays, alarmHistoryDays: AlarmHistoryDays, alarmNotify: AlarmNotify });
export type Settings = z.infer<typeof Settings>;
export const DEFAULT_SETTINGS: Settings = { theme: 'system', timeZone: 'local', riskHistoryDays: 90, alarmHistoryDays: 30, alarmNotify: ['critical'] };

/** settings.update: only what changes (no defaults here, or a patch would reset the other fields). */
export const SettingsPatch = z
  .object({ theme: Theme.optional(), timeZone: TimeZonePreference.optional(), riskHistoryDays: RiskHistoryDays.optional(), alarmHistoryDays: AlarmHistoryDays.optional(), alarmNotify: AlarmNotify.optional() })
  .strict();
export type SettingsPatch = z.infer<typeof SettingsPatch>;

/** The RabbitMQ topic exchange scores go to (electron/edr/targets.ts). */
export const AMQP_EXCHANGE = 'northbound.zta';
export const AMQP_DEFAULT_PORTS = { 'amqp:': 5672, 'amqps:': 5671 } as const;

export interface AmqpAddress {
  scheme: 'amqp' | 'amqps';
  host: string;
  /** The port amqplib connects to (the scheme's default when the address names none). */
  port: number;
  /** The virtual host as amqplib reads it: the path without its slash, unescaped; "/" when empty. */
  vhost: string;
  username: string;
  /** The password written in the address (decoded), "" when there is none. */
  password: string;
}

const EXAMPLE = 'amqp://rabbit.example.com:5672/ or amqps://user@rabbit.example.com:5671/vhost';

/** Percent-decoding that never throws (amqplib unescapes the same way). */
function decode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * Reads a RabbitMQ address (`amqp[s]://[user[:password]@]host[:port][/vhost]`), or says in words
 * what to fix. The message never repeats the address (it may hold a password).
 */
export function parseAmqpUrl(text: string): { ok: true; address: AmqpAddress } | { ok: false; message: string } {
  const s = text.trim();
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(s)?.[1]?.toLowerCase();
  const isAmqp = scheme === 'amqp' || scheme === 'amqps';
  if (!scheme || (!isAmqp && !s.includes('://'))) return { ok: false, message: `Start the address with amqp:// or amqps://, e.g. ${EXAMPLE}.` };
  if (!isAmqp) return { ok: false, message: `The address starts with ${scheme}://; RabbitMQ needs amqp:// (or amqps:// for TLS).` };
  if (!/^[a-z]+:\/\//i.test(s)) return { ok: false, message: `Write two slashes after ${scheme}:, e.g. ${EXAMPLE}.` };
  const noHost = { ok: false, message: `The address has no host: write the broker's name or IP address after ${scheme}://, e.g. ${EXAMPLE}.` } as const;
  let u: URL;
  try {
    u = new URL(s);
  } catch {
    // Say which part is wrong: URL only says "invalid".
    const parts = /^[a-z]+:\/\/(?:[^@/]*@)?(\[[^\]]*\]|[^:/?#]*)(?::([^/?#]*))?/i.exec(s);
    if (parts && !parts[1]) return noHost;
    if (parts?.[2] !== undefined) return { ok: false, message: 'The port must be a number from 1 to 65535.' };
    return { ok: false, message: `The address is not a valid URL: check the host name for spaces or stray characters (e.g. ${EXAMPLE}).` };
  }
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (!host) return noHost;
  const port = u.port ? Number(u.port) : AMQP_DEFAULT_PORTS[`${scheme}:`];
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { ok: false, message: 'The port must be a number from 1 to 65535.' };
  if (u.hash) return { ok: false, message: 'Remove the “#…” part: a RabbitMQ address has none.' };
  const path = u.pathname.replace(/^\//, '');
  if (path.includes('/')) return { ok: false, message: 'A virtual host is one path segment: write a “/” inside its name as %2F (e.g. amqp://host/%2F for “/”).' };
  return {
    ok: true,
    address: { scheme, host: host.toLowerCase(), port, vhost: path ? decode(path) : '/', username: decode(u.username), password: decode(u.password) },
  };
}

/** The address without its password (what the window and the log may see). */
export function amqpUrlWithoutPassword(text: string): string {
  try {
    const u = new URL(text.trim());
    u.password = '';
    return u.toString();
  } catch {
    return text.trim().replace(/^([a-z]+:\/\/[^:@/]*):[^@/]*@/i, '$1@');
  }
}

/** What a stored password is bound to: scheme (TLS or not), host, port and virtual host (C-22). */
export const amqpEndpointKey = (a: AmqpAddress) => `${a.scheme}://${a.host}:${a.port}/${a.vhost}`;

/** An address field: empty (no broker), or an address `parseAmqpUrl` accepts. */
export const AmqpUrlField = z
  .string()
  .trim()
  .max(2048, 'The address is longer than 2,048 characters.')
  .superRefine((v, ctx) => {
    if (!v) return;
    const r = parseAmqpUrl(v);
    if (!r.ok) ctx.addIssue({ code: 'custom', message: r.message });
  });

/** publication.update: the broker address, and the password only when typed. */
export const PublicationUpdate = z
  .object({
    /** "" removes the broker (and its stored password). A password written in the address is moved to the vault. */
    amqpUrl: AmqpUrlField,
    /** Typed by the operator: replaces the stored password. Absent keeps it (if the endpoint stays the same). */
    password: z.string().min(1, 'Type the password, or leave the field empty to keep the stored one.').max(1024, 'The password is longer than 1,024 characters.').optional(),
    /** Forget the stored password (the broker then gets the address's user without one). */
    forgetPassword: z.boolean().optional(),
  })
  .strict();
export type PublicationUpdate = z.infer<typeof PublicationUpdate>;

/** publication.get: where scores are published, without any password. */
export const PublicationView = z.object({
  amqp: z.object({
    /** The address stored in the settings (`edr.amqpUrl`), without a password; null when none. */
    url: z.string().nullable(),
    /** A password for it is stored in the vault. */
    hasPassword: z.boolean(),
    /** NORTHBOUND_AMQP_URL (without its password) when set: it overrides the stored address. */
    environmentUrl: z.string().nullable(),
    /** Which address the next publication uses. */
    active: z.enum(['settings', 'environment', 'none']),
    /** Why the address in use cannot be used (a hand-edited file, a bad environment variable). */
    problem: z.string().optional(),
    exchange: z.string(),
  }),
});
export type PublicationView = z.infer<typeof PublicationView>;
