/**
 * How long a text read from the network may be (issue 20.5): every name and text a node (REST or
 * its alarm bus) or an EDR tenant sends is cut to one of these limits where it is parsed, before
 * it is stored, shown, logged or sent to the window. A cut text ends in a visible mark that says
 * how long it was (`boundText`); the decision is SIZE-1 in docs/spec-decisions.md. Keep every
 * such limit here, and read network text through these functions only.
 */
import { formatCount } from '../text';

export const LIMITS = {
  /** Names and short words: device, organization, user, group, host, OS, tag, CVE ID, status words. */
  name: 256,
  /** What identifies an alarm on its node (device, managed object, type, specific problem): long enough that two real keys never meet. */
  key: 1_024,
  /** A node's error message shown to the operator. */
  message: 1_024,
  /** Free text: an alarm text, a handling's note, a task's message. */
  text: 4_096,
  /** A bus message larger than this (bytes) is set aside unread, with its reason. */
  busMessageBytes: 1_048_576,
  /** One `alarms.list` answer stops adding rows at this many bytes of JSON (and says there is more). */
  alarmWindowBytes: 1_048_576,
  /** A notification's title and its body, each one line of at most this many characters. */
  notificationLine: 200,
  /** Within that line: the alarm's text, and each name (device, organization, object). */
  notificationText: 100,
  notificationName: 40,
} as const;


/** The mark a cut text ends in: `… [truncated, 10,485,760 characters]`. */
export const truncationMark = (length: number): string => `… [truncated, ${formatCount(length)} characters]`;

/** The first `n` UTF-16 units of `s`, one shorter if that would split a surrogate pair. */
function head(s: string, n: number): string {
  const code = s.charCodeAt(n - 1);
  return s.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/**
 * `value` when it is at most `limit` characters; else its start and the mark saying how long it
 * was, `limit` characters in all (a limit too small for the mark gets a bare "…"). null and
 * undefined pass through, so optional fields read `boundText(filled(x), LIMITS.name)`.
 */
export function boundText<T extends string | null | undefined>(value: T, limit: number): T {
  if (typeof value !== 'string' || value.length <= limit) return value;
  const mark = truncationMark(value.length);
  if (limit < mark.length * 2) return `${head(value, Math.max(0, limit - 1))}…` as T;
  return `${head(value, limit - mark.length)}${mark}` as T;
}

/** True when `value` ends in the mark `boundText` puts on a text it cut. */
export const isTruncated = (value: string): boolean => /… \[truncated, [\d,]+ characters\]$/.test(value);

/** One line for a short place (a notification): blanks and line breaks folded to one space, cut with "…" at `limit`. */
export function boundLine(value: string, limit: number): string {
  const line = value.replace(/\s+/g, ' ').trim();
  return line.length <= limit ? line : `${head(line, limit - 1)}…`;
}

/** Every string of `list` bound to `limit` (tags, CVE IDs). */
export const boundList = (list: readonly string[], limit: number): string[] => list.map((s) => boundText(s, limit));

/**
 * A record read from the network with every string in it (in nested records and lists too) cut
 * to `limit`: for records whose fields are all names (a device, an organization, an appliance).
 */
export function boundStrings<T>(record: T, limit: number): T {
  if (typeof record === 'string') return boundText(record, limit) as T;
  if (Array.isArray(record)) return record.map((v: unknown) => boundStrings(v, limit)) as T;
  if (typeof record !== 'object' || record === null) return record;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(record)) out[k] = boundStrings(v, limit);
  return out as T;
}
