/** Small, pure formatting helpers for the UI. */

const plural = (n: number, unit: string) => `${n} ${unit}`;

/** 3600 → "1 h", 5400 → "1 h 30 min", 86400 → "1 d", 90 → "1 min 30 s". */
export function formatDuration(totalSeconds: number): string {
  if (!Number.isFinite(totalSeconds) || totalSeconds < 0) return '';
  const s = Math.floor(totalSeconds);
  if (s < 60) return plural(s, 's');
  const parts: string[] = [];
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (d) parts.push(plural(d, 'd'));
  if (h) parts.push(plural(h, 'h'));
  if (m) parts.push(plural(m, 'min'));
  if (sec && !d) parts.push(plural(sec, 's'));
  return parts.slice(0, 2).join(' ');
}

/** Token expiry as the badge says it: "expires in 54 min", "no expiry", "token expired". */
export function expiryText(expiresAt: string | null | undefined, now: number): string | undefined {
  if (expiresAt === null) return 'no expiry';
  if (expiresAt === undefined) return undefined;
  const at = Date.parse(expiresAt);
  if (Number.isNaN(at)) return undefined;
  const left = Math.floor((at - now) / 1000);
  if (left <= 0) return 'token expired';
  if (left < 60) return 'expires in <1 min';
  const min = Math.floor(left / 60);
  if (min < 60) return `expires in ${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `expires in ${h} h${min % 60 ? ` ${min % 60} min` : ''}`;
  return `expires in ${Math.floor(h / 24)} d`;
}

/** "AB:CD:…" (32 bytes) → 4 lines of 8 bytes, each line two groups of 4, colons kept. */
export function fingerprintLines(fp: string): string[][] {
  const bytes = fp.split(':');
  const lines: string[][] = [];
  for (let i = 0; i < bytes.length; i += 8) {
    const line = bytes.slice(i, i + 8);
    const last = i + 8 >= bytes.length;
    const text = (group: string[], end: boolean) => group.join(':') + (end && last ? '' : ':');
    const a = line.slice(0, 4);
    const b = line.slice(4);
    lines.push(b.length ? [text(a, false), text(b, true)] : [text(a, true)]);
  }
  return lines;
}

/** Where times are shown: UTC, or the computer's own zone (the Settings page, C-21). */
export type TimeZonePreference = 'local' | 'utc';

/**
 * The one way the console writes a time, so that two times on screen can be compared at a glance:
 * `2026-05-01 12:54:30 UTC+02:00` — year first, 24-hour with seconds, and the zone. Made by
 * `timeFormat` for the chosen zone; the window gets it from `useTimeFormat()`.
 */
export interface TimeFormat {
  readonly preference: TimeZonePreference;
  /** The IANA zone times are written in ("UTC", or the computer's, e.g. "Europe/Berlin"). */
  readonly timeZone: string;
  /** "2026-05-01 12:54:30 UTC+02:00"; "—" for no time; text that is no time is shown as it is. */
  dateTime(iso: string | null | undefined): string;
  /** "12:54:30": for a list that names its zone once (zoneLabel). */
  time(iso: string | null | undefined): string;
  /** "UTC", or the offset from UTC at that instant ("UTC+02:00"; it moves with daylight saving time). */
  zoneLabel(at?: string | number): string;
  /** An ISO instant as the value of <input type="datetime-local"> in this zone ("" stays ""). */
  toInput(iso: string): string;
  /** A <input type="datetime-local"> value read in this zone, as ISO UTC without milliseconds ("" stays ""). */
  fromInput(value: string): string;
}

/** The computer's own IANA zone. */
export const localTimeZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone;

const partsFormats = new Map<string, Intl.DateTimeFormat>();
/** One Intl formatter per zone (building one costs far more than using it). */
function partsFormat(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormats.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
      timeZoneName: 'longOffset',
    });
    partsFormats.set(timeZone, f);
  }
  return f;
}

interface ZonedParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
  second: string;
  /** "UTC" or "UTC+02:00". */
  zone: string;
}

/** The parts of instant `t` in the zone, from Intl (the reference; `zonedParts` is its fast form). */
export function intlParts(t: number, timeZone: string): ZonedParts {
  const out: Record<string, string> = {};
  for (const p of partsFormat(timeZone).formatToParts(t)) out[p.type] = p.value;
  // longOffset writes "GMT+02:00"; a zero offset is "GMT" or "GMT+00:00" depending on the ICU version.
  const offset = (out.timeZoneName ?? '').replace(/^(GMT|UTC)/, '');
  const zone = !offset || /^[+-]00:?00$/.test(offset) ? 'UTC' : `UTC${offset}`;
  return { year: out.year ?? '', month: out.month ?? '', day: out.day ?? '', hour: out.hour ?? '', minute: out.minute ?? '', second: out.second ?? '', zone };
}

const QUARTER_HOUR = 900_000;
interface ZoneSpan {
  /** Milliseconds the zone is ahead of UTC. */
  offset: number;
  zone: string;
}
const spans = new Map<string, Map<number, ZoneSpan | null>>();

/** The zone's offset and label throughout the quarter hour `q`, or null when it changes inside it. */
function spanOf(q: number, timeZone: string): ZoneSpan | null {
  let byQuarter = spans.get(timeZone);
  if (!byQuarter) spans.set(timeZone, (byQuarter = new Map()));
  let span = byQuarter.get(q);
  if (span === undefined) {
    const start = q * QUARTER_HOUR;
    const offset = zoneOffsetMs(start, timeZone);
    span = offset === zoneOffsetMs(start + QUARTER_HOUR - 1, timeZone) ? { offset, zone: intlParts(start, timeZone).zone } : null;
    if (byQuarter.size >= 20_000) byQuarter.clear();
    byQuarter.set(q, span);
  }
  return span;
}

const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));

/**
 * The parts of instant `t` in the zone: the zone's offset, read from Intl once per quarter hour
 * (a table of 100,000 hosts writes a time in every row it draws, and `formatToParts` is slow),
 * then plain UTC arithmetic. A quarter hour in which the offset changes, and a year of other than
 * four digits, are read from Intl itself.
 */
function zonedParts(t: number, timeZone: string): ZonedParts {
  const span = spanOf(Math.floor(t / QUARTER_HOUR), timeZone);
  if (!span) return intlParts(t, timeZone);
  const d = new Date(t + span.offset);
  const year = d.getUTCFullYear();
  if (year < 1000 || year > 9999) return intlParts(t, timeZone);
  return { year: String(year), month: pad2(d.getUTCMonth() + 1), day: pad2(d.getUTCDate()), hour: pad2(d.getUTCHours()), minute: pad2(d.getUTCMinutes()), second: pad2(d.getUTCSeconds()), zone: span.zone };
}

const instantOf = (value: string | number): number => (typeof value === 'number' ? value : Date.parse(value));

/** Milliseconds the zone is ahead of UTC at instant `t`. */
function zoneOffsetMs(t: number, timeZone: string): number {
  const p = intlParts(t, timeZone);
  return Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute), Number(p.second)) - Math.floor(t / 1000) * 1000;
}

/** The formatter for a zone preference; `localZone` names the computer's zone (tests pass one). */
export function timeFormat(preference: TimeZonePreference, localZone: string = localTimeZone()): TimeFormat {
  const timeZone = preference === 'utc' ? 'UTC' : localZone;
  const parts = (iso: string | null | undefined): ZonedParts | string => {
    if (!iso) return '—';
    const t = Date.parse(iso);
    return Number.isNaN(t) ? iso : zonedParts(t, timeZone);
  };
  return {
    preference,
    timeZone,
    dateTime(iso) {
      const p = parts(iso);
      return typeof p === 'string' ? p : `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${p.zone}`;
    },
    time(iso) {
      const p = parts(iso);
      return typeof p === 'string' ? p : `${p.hour}:${p.minute}:${p.second}`;
    },
    zoneLabel(at = Date.now()) {
      const t = instantOf(at);
      return zonedParts(Number.isNaN(t) ? Date.now() : t, timeZone).zone;
    },
    toInput(iso) {
      if (!iso) return '';
      const t = Date.parse(iso);
      if (Number.isNaN(t)) return '';
      const p = zonedParts(t, timeZone);
      return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
    },
    fromInput(value) {
      const m = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
      if (!m) return '';
      const wall = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0));
      // The instant whose wall-clock time in the zone is `wall`: correct by the offset, twice for a DST edge.
      let t = wall - zoneOffsetMs(wall, timeZone);
      t = wall - zoneOffsetMs(t, timeZone);
      return Number.isNaN(t) ? '' : new Date(t).toISOString().replace(/\.\d{3}Z$/, 'Z');
    },
  };
}

/** 512 → "512 B", 2048 → "2 KiB", 3_500_000 → "3.3 MiB". */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n) || n < 0) return '';
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${Math.round(n / 1024)} KiB`;
  return `${(n / (1024 * 1024)).toFixed(1)} MiB`;
}

/** "just now", "5 min ago", "3 h ago", "2 d ago". */
export function agoText(iso: string, now: number): string {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return iso;
  const min = Math.floor((now - t) / 60_000);
  if (min < 1) return 'just now';
  if (min < 60) return `${min} min ago`;
  const h = Math.floor(min / 60);
  return h < 48 ? `${h} h ago` : `${Math.floor(h / 24)} d ago`;
}

/** As agoText, in seconds under a minute ("6 s ago"): a heartbeat against a lease of seconds, where "just now" read as alive. */
export function agoSecondsText(iso: string, now: number): string {
  const s = Math.floor((now - Date.parse(iso)) / 1000);
  return Number.isFinite(s) && s >= 0 && s < 60 ? `${s} s ago` : agoText(iso, now);
}

/** 1234 → "1,234" (shared/text.ts: the one count formatter of main and the window). */
export { formatCount } from '../../shared/text';
