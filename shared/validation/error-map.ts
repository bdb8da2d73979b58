/**
 * The project's one zod error map (C-23): every issue a schema does not word itself becomes a
 * sentence that names the field in words and says what to enter ("Enter the client ID.",
 * "Choose a vendor: CrowdStrike Falcon or Microsoft Defender.", "The document's version must be
 * 1."). zod asks a schema's own message first, so the messages written in the schemas keep
 * priority; this map only fills in for the rest. Installed for every process by `./install`.
 * Sentences never quote the value that was given (it may be a secret typed into the wrong box),
 * only its kind.
 */
import type { z } from 'zod';
import { fieldLabel, fieldPhrase, lastKey, keyLabel, valueLabel } from './labels';

type RawIssue = z.core.$ZodRawIssue;

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** "a or b", "a, b or c". */
export const orList = (items: readonly string[]): string => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`);

/** "a vendor", "an auth mode". */
const withArticle = (label: string) => `${/^(?:[aeio]|u[^s])/i.test(label) ? 'an' : 'a'} ${label}`;

/** What a type is called in a sentence. */
function kindOf(type: string): string {
  switch (type) {
    case 'string':
      return 'text';
    case 'number':
      return 'a number';
    case 'int':
    case 'bigint':
      return 'a whole number';
    case 'boolean':
      return 'true or false';
    case 'array':
    case 'tuple':
    case 'set':
      return 'a list';
    case 'object':
    case 'record':
    case 'map':
      return 'an object ({ … })';
    case 'date':
      return 'a date';
    case 'null':
      return 'empty (null)';
    case 'undefined':
      return 'missing';
    case 'nan':
      return 'not a number';
    default:
      return type;
  }
}

/** The kind of a value that was given, without its content. */
function kindOfInput(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && Number.isNaN(input)) return 'nan';
  return typeof input;
}

const isMissing = (input: unknown, expected: string) =>
  input === undefined || input === null || (typeof input === 'number' && Number.isNaN(input) && (expected === 'number' || expected === 'int'));

function missing(expected: string, field: string | undefined): string {
  const the = field ?? 'a value';
  switch (expected) {
    case 'boolean':
      return `Set ${the} to true or false.`;
    case 'array':
    case 'tuple':
    case 'set':
      return `Give ${the} as a list.`;
    case 'object':
    case 'record':
    case 'map':
      return `Fill in ${the}.`;
    default:
      return `Enter ${the}.`;
  }
}

function invalidType(iss: Extract<RawIssue, { code: 'invalid_type' }>, field: string | undefined): string {
  if (isMissing(iss.input, iss.expected)) return missing(iss.expected, field);
  const received = kindOf(kindOfInput(iss.input));
  return `${field ? cap(field) : 'This'} must be ${kindOf(iss.expected)}, not ${received}.`;
}

const count = (n: number | bigint, one: string, many: string) => `${n} ${n === 1 || n === 1n ? one : many}`;

function tooSmall(iss: Extract<RawIssue, { code: 'too_small' }>, field: string | undefined): string {
  const the = field ?? 'the value';
  const n = iss.minimum;
  switch (iss.origin) {
    case 'string':
      if (iss.exact) return `${cap(the)} must be exactly ${count(n, 'character', 'characters')} long.`;
      if (Number(n) <= 1 && iss.inclusive !== false) return `Enter ${field ?? 'a value'}.`;
      return `${cap(the)} needs at least ${count(iss.inclusive === false ? Number(n) + 1 : n, 'character', 'characters')}.`;
    case 'array':
    case 'set':
      if (iss.exact) return `${cap(the)} must have exactly ${count(n, 'entry', 'entries')}.`;
      if (Number(n) <= 1 && iss.inclusive !== false) return `Add at least one entry to ${the}.`;
      return `${cap(the)} needs at least ${count(iss.inclusive === false ? Number(n) + 1 : n, 'entry', 'entries')}.`;
    case 'date':
      return `${cap(the)} must be on or after ${new Date(Number(n)).toISOString()}.`;
    case 'file':
      return `${cap(the)} must be at least ${count(n, 'byte', 'bytes')}.`;
    default:
      return `${cap(the)} must be ${iss.inclusive === false ? 'more than' : 'at least'} ${n}.`;
  }
}

function tooBig(iss: Extract<RawIssue, { code: 'too_big' }>, field: string | undefined): string {
  const the = field ?? 'the value';
  const n = iss.maximum;
  switch (iss.origin) {
    case 'string':
      if (iss.exact) return `${cap(the)} must be exactly ${count(n, 'character', 'characters')} long.`;
      return `${cap(the)} can be at most ${count(iss.inclusive === false ? Number(n) - 1 : n, 'character', 'characters')} long.`;
    case 'array':
    case 'set':
      if (iss.exact) return `${cap(the)} must have exactly ${count(n, 'entry', 'entries')}.`;
      return `${cap(the)} can have at most ${count(iss.inclusive === false ? Number(n) - 1 : n, 'entry', 'entries')}.`;
    case 'date':
      return `${cap(the)} must be on or before ${new Date(Number(n)).toISOString()}.`;
    case 'file':
      return `${cap(the)} must be at most ${count(n, 'byte', 'bytes')}.`;
    default:
      return `${cap(the)} must be ${iss.inclusive === false ? 'less than' : 'at most'} ${n}.`;
  }
}

const FORMATS: Readonly<Record<string, string>> = {
  email: 'an e-mail address, e.g. ops@example.com',
  url: 'a full address such as https://example.com',
  uuid: 'a GUID (32 hex digits in groups of 8-4-4-4-12)',
  guid: 'a GUID (32 hex digits in groups of 8-4-4-4-12)',
  datetime: 'an ISO 8601 date and time, e.g. 2027-01-31T00:00:00Z',
  date: 'an ISO 8601 date, e.g. 2027-01-31',
  time: 'a time of day, e.g. 14:30:00',
  duration: 'an ISO 8601 duration, e.g. PT15M',
  ipv4: 'an IPv4 address, e.g. 10.0.0.5',
  ipv6: 'an IPv6 address, e.g. 2001:db8::5',
  cidrv4: 'an IPv4 prefix, e.g. 10.0.0.0/24',
  cidrv6: 'an IPv6 prefix, e.g. 2001:db8::/64',
  hostname: 'a host name, e.g. mgmt.example.net',
  base64: 'Base64 text',
  base64url: 'Base64url text',
  json_string: 'JSON text',
  e164: 'a phone number in international form, e.g. +4930123456',
  jwt: 'a JSON Web Token',
  lowercase: 'in lower case',
  uppercase: 'in upper case',
};

function invalidFormat(iss: Extract<RawIssue, { code: 'invalid_format' }>, field: string | undefined): string {
  const the = cap(field ?? 'the value');
  const i = iss as { format: string; prefix?: string; suffix?: string; includes?: string };
  switch (i.format) {
    case 'starts_with':
      return `${the} must start with “${i.prefix ?? ''}”.`;
    case 'ends_with':
      return `${the} must end with “${i.suffix ?? ''}”.`;
    case 'includes':
      return `${the} must contain “${i.includes ?? ''}”.`;
    case 'regex':
      return `${the} is not in the expected form.`;
    default: {
      const words = FORMATS[i.format];
      return words ? `${the} must be ${words}.` : `${the} is not a valid ${keyLabel(i.format)}.`;
    }
  }
}

/** "Choose a vendor: CrowdStrike Falcon or Microsoft Defender." / "The document's version must be 1." */
function choice(values: readonly unknown[], path: readonly PropertyKey[], key: string | undefined, field: string | undefined): string {
  const named = values.map((v) => valueLabel(key, v));
  if (named.length === 1) return `${cap(field ?? 'the value')} must be ${named[0]}.`;
  const label = key === undefined ? undefined : fieldLabel(path);
  return label ? `Choose ${withArticle(label)}: ${orList(named)}.` : `Choose one of ${orList(named)}.`;
}

/** A name the input gave (a key), quoted and kept short: an error message never echoes a long input back. */
export const quoteName = (name: string): string => `“${name.length > 40 ? `${name.slice(0, 39)}…` : name}”`;

function unrecognizedKeys(keys: readonly string[], field: string | undefined): string {
  const shown = keys.slice(0, 5).map(quoteName).join(', ');
  const names = keys.length > 5 ? `${shown} and ${keys.length - 5} more` : shown;
  const where = field ? ` in ${field}` : '';
  return keys.length === 1 ? `Unknown field ${names}${where}: remove it or check its spelling.` : `Unknown fields ${names}${where}: remove them or check their spelling.`;
}

/** The map itself (zod's `customError`): a sentence for any issue, naming the field of its path. */
export function operatorMessage(iss: RawIssue): string {
  const path = (iss.path ?? []) as PropertyKey[];
  const field = fieldPhrase(path);
  switch (iss.code) {
    case 'invalid_type':
      return invalidType(iss, field);
    case 'too_small':
      return tooSmall(iss, field);
    case 'too_big':
      return tooBig(iss, field);
    case 'invalid_format':
      return invalidFormat(iss, field);
    case 'not_multiple_of':
      return `${cap(field ?? 'the value')} must be a multiple of ${iss.divisor}.`;
    case 'unrecognized_keys':
      return unrecognizedKeys(iss.keys, field);
    case 'invalid_union': {
      const { options, discriminator } = iss as { options?: readonly unknown[]; discriminator?: string };
      if (options?.length) {
        // A discriminated union whose tag is missing or unknown: the tag is a choice.
        const key = lastKey(path) ?? discriminator;
        const label = key === undefined ? undefined : keyLabel(key);
        const named = options.map((v) => valueLabel(key, v));
        return label ? `Choose ${withArticle(label)}: ${orList(named)}.` : `Choose one of ${orList(named)}.`;
      }
      return `${cap(field ?? 'the value')} does not match any of the accepted forms.`;
    }
    case 'invalid_value':
      return choice(iss.values, path, lastKey(path), field);
    case 'invalid_key': {
      // A record's path ends in the key itself; a map's is the map (its key is no property name).
      if (iss.origin !== 'record') return `A key in ${field ?? 'the value'} is not valid.`;
      const key = path[path.length - 1];
      return `The key${typeof key === 'string' ? ` ${quoteName(key)}` : ''} in ${fieldPhrase(path.slice(0, -1)) ?? 'the value'} is not valid.`;
    }
    case 'invalid_element':
      return `An entry of ${field ?? 'the value'} is not valid.`;
    case 'custom':
      return `${cap(field ?? 'the value')} is not valid.`;
    default:
      return `${cap(field ?? 'the value')} is not valid.`;
  }
}

/** Words of a label that need not appear in a message naming the field. */
const FILLER = new Set(['the', 'a', 'an', 'of', 'in', 'or', 'and', 'to']);

/**
 * One issue as a line on its own (a summary, an import result, the CLI): the message, led by
 * the field's label when the message does not name the field itself ("Name: Use letters,
 * digits, …"). Messages of this map always name it.
 */
export function issueText(issue: { path: readonly PropertyKey[] | string; message: string }): string {
  const label = fieldLabel(issue.path);
  if (!label) return issue.message;
  const said = issue.message.replace(/[“”"']/g, '');
  const words = label
    .replace(/[“”"'()]/g, '')
    .split(/\s+/)
    .filter((w) => w && !FILLER.has(w.toLowerCase()));
  const named = words.every((w) => new RegExp(`\\b${w.replace(/[.*+?^${}()|[\]\\-]/g, '\\$&')}`, 'i').test(said));
  return named ? issue.message : `${cap(label)}: ${issue.message}`;
}
