/**
 * Fast reading of the vendors' UTC time stamps. `Date.parse` costs most of a host's scoring time,
 * so the usual shape `YYYY-MM-DDTHH:MM:SS[.fraction]Z` (Defender sends 7 fraction digits) is read
 * by hand; anything else (offsets, date-only, out-of-range fields) goes to `Date.parse`, so the
 * result is always the one `Date.parse` gives (fraction digits beyond milliseconds truncated).
 */

const digit = (s: string, i: number): number => {
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1000; // poisons the sum, so any non-digit makes the field negative
};
const two = (s: string, i: number): number => digit(s, i) * 10 + digit(s, i + 1);

const isLeap = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
const daysInMonth = (y: number, m: number) => (m === 2 ? (isLeap(y) ? 29 : 28) : m === 4 || m === 6 || m === 9 || m === 11 ? 30 : 31);

/** Epoch milliseconds of an ISO 8601 time stamp, NaN when it cannot be read. */
export function parseTimestamp(s: string): number {
  const n = s.length;
  if (
    n < 20 ||
    s.charCodeAt(n - 1) !== 90 || // Z
    s.charCodeAt(4) !== 45 || // -
    s.charCodeAt(7) !== 45 ||
    s.charCodeAt(10) !== 84 || // T
    s.charCodeAt(13) !== 58 || // :
    s.charCodeAt(16) !== 58
  ) {
    return Date.parse(s);
  }
  const year = two(s, 0) * 100 + two(s, 2);
  const month = two(s, 5);
  const day = two(s, 8);
  const hour = two(s, 11);
  const minute = two(s, 14);
  const second = two(s, 17);
  if (year < 100 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59) {
    return Date.parse(s);
  }
  let ms = 0;
  if (n > 20) {
    if (s.charCodeAt(19) !== 46 || n === 21) return Date.parse(s); // not ".<digits>Z"
    for (let i = 20, scale = 100; i < n - 1; i++, scale = scale > 1 ? scale / 10 : 0) {
      const d = digit(s, i);
      if (d < 0) return Date.parse(s);
      ms += d * scale;
    }
  }
  return daysFromCivil(year, month, day) * 86_400_000 + hour * 3_600_000 + minute * 60_000 + second * 1000 + ms;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm; `Date.UTC` is several times slower). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (month > 2 ? month - 3 : month + 9) + 2) / 5) + day - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146_097 + doe - 719_468;
}
