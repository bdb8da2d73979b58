/**
 * Reading the management node's answers, for every feature that calls it (inventory, alarms):
 * lenient where real nodes vary (numbers sent as strings, "" for "none", namespaced wrapper keys
 * such as `versanms.sdwan-device-list`, MN-49) and strict where a wrong value would mislead (a
 * list that is not a list is refused, not read as empty).
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import { NAMESPACE_RE } from '../../shared/model/profile';

/** One authenticated call on the signed-in session (MgmtSession.request); `signal` aborts the HTTP request itself, not only the waiting. */
export type NodeRequest = <T = unknown>(method: string, path: string, body?: unknown, opts?: { signal?: AbortSignal }) => Promise<T | undefined>;

/** One page of a list answer. */
export interface Page<T> {
  items: T[];
  /** `totalCount` of the answer; undefined when the node sent none. */
  total: number | undefined;
}

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
export const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : undefined);
/** Text with its blanks trimmed; an empty string (real nodes send "" for "none") is undefined. */
export const filled = (v: unknown): string | undefined => {
  const t = text(v)?.trim();
  return t ? t : undefined;
};
export const count = (v: unknown): number | undefined => {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) && n >= 0 ? n : undefined;
};

export function unexpectedAnswer(what: string): AppError {
  return new AppError(ErrorCodes.unexpectedResponse, `The node sent ${what} the console cannot read.`, 'The node may run an incompatible release; show this to its administrator if it stays.');
}

/**
 * The value under `key` or under any `<namespace>.key` (real nodes: `versanms.sdwan-device-list`),
 * with the namespace it was found under.
 */
export function byKeySuffix(o: Record<string, unknown>, key: string): { value: unknown; namespace?: string } | undefined {
  if (Object.prototype.hasOwnProperty.call(o, key)) return { value: o[key] };
  for (const [k, value] of Object.entries(o)) {
    if (k.endsWith(`.${key}`)) {
      const namespace = k.slice(0, -key.length - 1);
      return NAMESPACE_RE.test(namespace) ? { value, namespace } : { value };
    }
  }
  return undefined;
}

/** One page of a list answer, with the namespace its wrapper key revealed (if any). */
export interface NodePage<T> extends Page<T> {
  namespace?: string;
}

/**
 * The records of a list answer under one of `keys` (each also found with a namespace prefix), at
 * the top level or inside a wrapper object (`{"<ns>.ApplianceStatusResult": {totalCount, appliances}}`).
 * A body with none of them, or with a list that is not a list, is refused rather than read as empty.
 */
export function listOf(body: unknown, keys: readonly string[], what: string, wrappers: readonly string[] = []): NodePage<unknown> {
  if (!isObject(body)) throw unexpectedAnswer(what);
  let holder = body;
  let namespace: string | undefined;
  for (const w of wrappers) {
    const found = byKeySuffix(body, w);
    if (found && isObject(found.value)) {
      holder = found.value;
      namespace = found.namespace;
      break;
    }
  }
  for (const key of keys) {
    const found = byKeySuffix(holder, key);
    if (!found) continue;
    if (!Array.isArray(found.value)) throw unexpectedAnswer(what);
    const ns = namespace ?? found.namespace;
    return { items: found.value, total: count(holder.totalCount ?? body.totalCount), ...(ns ? { namespace: ns } : {}) };
  }
  // A page past the end may carry only its total.
  if (holder.totalCount !== undefined && count(holder.totalCount) !== undefined) return { items: [], total: count(holder.totalCount), ...(namespace ? { namespace } : {}) };
  throw unexpectedAnswer(what);
}

/**
 * A node time as ISO: `2023-01-16T14:18:12.666+0000` (workflow list), `2022-06-04 17:43:48.0`
 * and `2022/06/20 14:03:37` (appliance list, one answer may hold both). A time without a zone is
 * read as UTC. Undefined when it is not a time.
 */
export function nodeTime(v: unknown): string | undefined {
  const t = filled(v);
  if (!t) return undefined;
  const m = /^(\d{4})[-/](\d{2})[-/](\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?$/.exec(t);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, sec = '00', frac = '0', zone = 'Z'] = m;
  const ms = Math.round(Number(`0.${frac}`) * 1000);
  const offset = zone === 'Z' ? 'Z' : `${zone.slice(0, 3)}:${zone.slice(-2)}`;
  const date = new Date(`${y}-${mo}-${d}T${h}:${mi}:${sec}.${String(ms).padStart(3, '0')}${offset}`);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}
