/**
 * Malformed and hostile requests for every channel of the contract, shared by the browser-host
 * fuzz and the router fuzz. Each channel gets a bounded list (at most MAX_CASES): fixed
 * structural cases first (not JSON, wrong top-level types, prototype keys, deep nesting, bad
 * UTF-8, oversize), then a request built from the channel's own schema with one thing broken:
 * a field missing, of the wrong type, or a hostile string (a 1 MB string, `..`, /dev/zero,
 * /proc/self/environ, a FIFO, `__proto__`, …). Where that list is longer, fast-check picks a
 * fixed-seed subset, so every run sends the same requests.
 */
import fc from 'fast-check';
import { channels, type ChannelName } from '../../../shared/contract';
import { defaultOAuthClientBody } from '../../../shared/model/oauth-client';

export const MAX_CASES = 50;
const SEED = 20261124;

export interface FuzzCase {
  name: string;
  /** The body as bytes (HTTP); the router gets `value` instead. */
  body: Buffer;
  /** What the router is called with: the parsed body, or the body's text when it is not JSON. */
  value: unknown;
  /** Only meaningful over HTTP (oversize, bad UTF-8): the router fuzz skips it. */
  httpOnly?: boolean;
}

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

/** A plausible value for a schema: 'x' for strings, 1 for numbers, the first enum value, option `variant` of every union. */
function sample(schema: unknown, variant: number, depth = 0): unknown {
  const def = defOf(schema);
  if (depth > 8) return 'x';
  switch (def.type) {
    case 'object':
      return Object.fromEntries(Object.entries(def.shape as Record<string, unknown>).map(([k, v]) => [k, sample(v, variant, depth + 1)]));
    case 'string':
      return 'x';
    case 'number':
    case 'int':
      return 1;
    case 'boolean':
      return true;
    case 'enum':
      return Object.values(def.entries as Record<string, unknown>)[0];
    case 'literal':
      return (def.values as unknown[])[0];
    case 'array':
      return [sample(def.element, variant, depth + 1)];
    case 'optional':
    case 'default':
    case 'prefault':
    case 'nullable':
    case 'readonly':
    case 'catch':
      return sample(def.innerType, variant, depth + 1);
    case 'pipe':
      return sample(def.in, variant, depth + 1);
    case 'union':
      return sample((def.options as unknown[])[Math.min(variant, (def.options as unknown[]).length - 1)], variant, depth + 1);
    case 'record':
      return {};
    default:
      return 'x';
  }
}

/** Base requests: one per option of the unions in the schema (importBulk's file / document / node, TLS system / custom-ca / pinned). */
const FP = Array.from({ length: 32 }, () => 'AB').join(':');
const device = () => ({ deviceName: 'edge-1', siteId: '17', orgName: 'Acme', serialNumber: 'SN-1', deviceGroup: 'branch', locationInfo: { country: 'DE', latitude: '52.52', longitude: '13.40' } });
type Base = Record<string, unknown>;
/**
 * Where 'x' is not a valid value (URLs, fingerprints, dates, country codes), the sampled request is
 * made valid, so the broken variants reach the handler and not only the schema. Optional ids are
 * dropped: an id must name a stored record, and without one the request creates a record.
 */
const FIX: Partial<Record<ChannelName, (b: Base) => void>> = {
  'profiles.save': (b) => {
    delete b.id;
    if ((b.tls as Base).mode === 'pinned') (b.tls as Base).fingerprint256 = FP;
  },
  'tls.trust': (b) => void (b.fingerprint256 = FP),
  'oauthClients.create': (b) => void (b.body = { ...defaultOAuthClientBody(), name: 'fuzz', contacts: ['ops@example.invalid'], redirect_uris: ['https://example.invalid/cb'] }),
  'oauthClients.update': (b) => void (b.body = { ...defaultOAuthClientBody(), name: 'fuzz', contacts: ['ops@example.invalid'], redirect_uris: ['https://example.invalid/cb'] }),
  'connectors.save': (b) => {
    delete b.id;
    delete b.risk;
    Object.assign(b, { apiUrl: 'https://api.example.invalid', pollIntervalMinutes: 60 });
    if (b.vendor === 'defender') Object.assign(b, { tenantId: 'contoso.onmicrosoft.com', idpUrl: 'https://login.example.invalid' });
    if ((b.tls as Base).mode === 'pinned') (b.tls as Base).fingerprint256 = FP;
  },
  'devices.onboard': (b) => void (b.device = device()),
  'onboarding.start': (b) => void (b.rows = [{ line: 2, device: device() }]),
  'syslog.create': (b) => void (b.server = { host: 'syslog.example.invalid', port: 514, enabled: true }),
};

/** Where the requests point: a FIFO for path-like strings, and real records so that ids resolve. */
export interface FuzzEnv {
  fifo: string;
  /** A signed-in profile (basic), and one that signs in with OAuth for the oauthClients.* channels. */
  profileId?: string;
  oauthProfileId?: string;
  connectorId?: string;
}

export const basesOf = (channel: ChannelName, env: FuzzEnv) => bases(channel, env);
function bases(channel: ChannelName, env: FuzzEnv): Base[] {
  const out = new Map<string, Base>();
  for (let variant = 0; variant < 3; variant++) {
    const b = sample(channels[channel].request, variant) as Base;
    FIX[channel]?.(b);
    const profileId = channel.startsWith('oauthClients.') ? env.oauthProfileId : env.profileId;
    if ('profileId' in b && profileId) b.profileId = profileId;
    if ('connectorId' in b && env.connectorId) b.connectorId = env.connectorId;
    out.set(JSON.stringify(b), b);
  }
  return [...out.values()];
}

type Path = Array<string | number>;
function leaves(v: unknown, at: Path = []): Array<{ path: Path; value: unknown }> {
  if (!v || typeof v !== 'object') return [];
  const entries: Array<[string | number, unknown]> = Array.isArray(v) ? v.map((x, i) => [i, x]) : Object.entries(v);
  return entries.flatMap(([k, x]) => [{ path: [...at, k], value: x }, ...leaves(x, [...at, k])]);
}
function withValue(base: unknown, path: Path, value: unknown): unknown {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  let node = copy;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, unknown>;
  node[path[path.length - 1]!] = value;
  return copy;
}
function without(base: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = base;
  return rest;
}
const wrongType = (v: unknown): unknown => (typeof v === 'string' ? 12345 : typeof v === 'number' ? '1' : typeof v === 'boolean' ? 'true' : Array.isArray(v) ? { length: 1 } : v && typeof v === 'object' ? ['x'] : { x: 1 });

const json = (name: string, value: unknown): FuzzCase => ({ name, body: Buffer.from(JSON.stringify(value)), value });
const raw = (name: string, text: string | Buffer, httpOnly = false): FuzzCase => {
  const body = typeof text === 'string' ? Buffer.from(text) : text;
  let value: unknown;
  try {
    value = JSON.parse(body.toString('utf8'));
  } catch {
    value = body.toString('utf8');
  }
  return { name, body, value, httpOnly };
};

const DEEP = 100_000;
/** Strings that must never make a handler hang, crash or read what it should not. */
export function hostileStrings(fifo: string): Array<[string, string]> {
  return [
    ['/dev/zero', '/dev/zero'],
    ['/proc/self/environ', '/proc/self/environ'],
    ['a FIFO', fifo],
    ['..', '..'],
    ['.', '.'],
    ['../ traversal', '../../../../../../etc/passwd'],
    ['1 MB string', 'A'.repeat(1_000_000)],
    ['__proto__', '__proto__'],
    ['constructor', 'constructor'],
    ['empty', ''],
    ['NUL and CRLF', 'a\u0000b\r\nSet-Cookie: x=1'],
    ['lone surrogate', '\ud800x'],
    ['JSON with __proto__', '{"version":1,"connectors":[{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}}}]}'],
    ['deeply nested JSON text', `{"version":1,"connectors":${'['.repeat(DEEP)}${']'.repeat(DEEP)}}`],
  ];
}
/** The path-like strings are applied to every string field; the others to a fixed-seed choice of fields. */
const EVERY_FIELD = new Set(['/dev/zero', '/proc/self/environ', 'a FIFO']);

export function fuzzCases(channel: ChannelName, env: FuzzEnv): FuzzCase[] {
  const spec = channels[channel];
  const acceptsEmpty = spec.request.safeParse({}).success;
  const structural: FuzzCase[] = [
    raw('not JSON', 'this is not json'),
    raw('truncated JSON', '{"profileId":'),
    raw('bad UTF-8 bytes', Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0xfe, 0x22, 0x7d]), true),
    json('an array', []),
    json('a string', 'x'),
    json('a number', 42),
    ...(acceptsEmpty ? [] : [json('null', null)]),
    raw('__proto__ key', `{"__proto__":{"polluted":"yes"},"profileId":"x"}`),
    raw('constructor.prototype key', `{"constructor":{"prototype":{"polluted":"yes"}},"profileId":"x"}`),
    raw('deeply nested array', `${'['.repeat(DEEP)}${']'.repeat(DEEP)}`),
    raw('deeply nested object', `${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`),
    raw('oversize body', Buffer.alloc(spec.maxBytes + 1, 0x20), true),
  ];
  const mandatory: FuzzCase[] = [];
  // Built only when picked: most of them are never sent.
  const optional: Array<() => FuzzCase> = [];
  const seenPaths = new Set<string>();
  for (const base of bases(channel, env)) {
    const tls = base.tls as { mode?: unknown } | undefined;
    const kinds = [base.source, base.vendor, tls?.mode].filter((k) => typeof k === 'string');
    const tag = kinds.length ? `[${kinds.join(' ')}] ` : '';
    for (const key of Object.keys(base)) optional.push(() => json(`${tag}missing ${key}`, without(base, key)));
    optional.push(() => json(`${tag}unknown key`, { ...base, unexpected: true }));
    const rest = JSON.stringify(base).slice(1);
    optional.push(() => raw(`${tag}deeply nested field`, `{"nested":${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}${rest === '}' ? '' : ','}${rest}`));
    for (const leaf of leaves(base)) {
      const where = leaf.path.join('.');
      optional.push(() => json(`${tag}${where} of the wrong type`, withValue(base, leaf.path, wrongType(leaf.value))));
      if (typeof leaf.value !== 'string') continue;
      const first = !seenPaths.has(where);
      seenPaths.add(where);
      for (const [name, s] of hostileStrings(env.fifo)) {
        const c = () => json(`${tag}${where} = ${name}`, withValue(base, leaf.path, s));
        if (EVERY_FIELD.has(name) && first) mandatory.push(c());
        else optional.push(c);
      }
    }
  }
  const fixed = [...structural, ...mandatory].slice(0, MAX_CASES);
  const room = MAX_CASES - fixed.length;
  if (room <= 0 || optional.length === 0) return fixed;
  const [picked] = fc.sample(fc.shuffledSubarray(optional, { minLength: Math.min(room, optional.length), maxLength: Math.min(room, optional.length) }), { seed: SEED, numRuns: 1 });
  return [...fixed, ...(picked ?? []).map((make) => make())];
}

/** Bad WebSocket frames for the push-only event socket, and the close code each must end with (1000: ignored, then closed by the client). */
export const badFrames: Array<{ name: string; opcode: number; payload: Buffer; closeCode: number }> = [
  { name: 'text frame over 64 KiB', opcode: 0x1, payload: Buffer.alloc(70 * 1024, 0x61), closeCode: 1009 },
  { name: 'invalid UTF-8 text', opcode: 0x1, payload: Buffer.from([0xe0, 0x80, 0x80]), closeCode: 1007 },
  { name: 'binary frame', opcode: 0x2, payload: Buffer.from([0, 1, 2, 0xff]), closeCode: 1000 },
  { name: 'JSON command text', opcode: 0x1, payload: Buffer.from('{"event":"notice","payload":{"__proto__":{"polluted":"yes"}}}'), closeCode: 1000 },
  { name: 'reserved opcode', opcode: 0x3, payload: Buffer.from('x'), closeCode: 1002 },
  { name: 'continuation without a start', opcode: 0x0, payload: Buffer.from('x'), closeCode: 1002 },
];
