/**
 * The JSON a changed host's details are stored as (`host_details`, written by edr-staging.ts): its
 * record without its last-seen times, and its score's contributions.
 */
import type { Contribution, HostRecord } from '../../../shared/model/edr';

/**
 * The record as stored: without its last-seen times, which move every cycle and are kept in
 * `host_seen` instead (the views put them back). Made only for a host that changed. The times are
 * blanked on the record itself for the one stringify (no copy of it), and put back; a frozen
 * record is copied instead.
 */
export function storedRecord(h: HostRecord): string {
  if (Object.isFrozen(h) || (h.defender && Object.isFrozen(h.defender)) || (h.falcon && Object.isFrozen(h.falcon))) {
    return JSON.stringify({ ...h, lastSeen: null, ...(h.defender ? { defender: { ...h.defender, lastSeen: null } } : {}), ...(h.falcon ? { falcon: { ...h.falcon, lastSeen: null } } : {}) });
  }
  const seen = h.lastSeen;
  const d = h.defender;
  const f = h.falcon;
  const dSeen = d?.lastSeen ?? null;
  const fSeen = f?.lastSeen ?? null;
  try {
    h.lastSeen = null;
    if (d) d.lastSeen = null;
    if (f) f.lastSeen = null;
    return JSON.stringify(h);
  } finally {
    h.lastSeen = seen;
    if (d) d.lastSeen = dSeen;
    if (f) f.lastSeen = fSeen;
  }
}

/**
 * A score's contributions are shared frozen objects (one per indicator value, shared/risk/compile.ts),
 * so each one's JSON is made once.
 */
const contributionJson = new WeakMap<object, string>();
export function contributionsJson(list: readonly Contribution[]): string {
  let out = '[';
  for (let i = 0; i < list.length; i++) {
    const c = list[i]!;
    let j = contributionJson.get(c);
    if (j === undefined) {
      j = JSON.stringify(c);
      if (Object.isFrozen(c)) contributionJson.set(c, j);
    }
    out += (i ? ',' : '') + j;
  }
  return `${out}]`;
}

/** The stored record with the last-seen time of the latest cycle (the record is rewritten only when something else changed). */
export function withLastSeen(h: HostRecord, lastSeen: string | null): HostRecord {
  if (h.lastSeen === lastSeen) return h;
  return {
    ...h,
    lastSeen,
    ...(h.defender ? { defender: { ...h.defender, lastSeen } } : {}),
    ...(h.falcon ? { falcon: { ...h.falcon, lastSeen } } : {}),
  };
}
