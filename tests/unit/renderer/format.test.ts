import { describe, expect, it } from 'vitest';
import { agoSecondsText, expiryText, fingerprintLines, formatDuration, intlParts, timeFormat } from '../../../renderer/components/format';

const FP_A = 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89';

describe('format helpers', () => {
  it('says durations the way an operator reads them', () => {
    expect(formatDuration(3600)).toBe('1 h');
    expect(formatDuration(5400)).toBe('1 h 30 min');
    expect(formatDuration(86_400)).toBe('1 d');
    expect(formatDuration(90)).toBe('1 min 30 s');
    expect(formatDuration(31_536_000)).toBe('365 d');
  });

  it('counts down token expiry', () => {
    const now = Date.parse('2026-05-01T10:00:00Z');
    expect(expiryText('2026-05-01T10:54:30Z', now)).toBe('expires in 54 min');
    expect(expiryText('2026-05-01T12:05:00Z', now)).toBe('expires in 2 h 5 min');
    expect(expiryText('2026-05-01T10:00:20Z', now)).toBe('expires in <1 min');
    expect(expiryText('2026-05-01T09:00:00Z', now)).toBe('token expired');
    expect(expiryText(null, now)).toBe('no expiry');
    expect(expiryText(undefined, now)).toBeUndefined();
  });

  it('groups a fingerprint without changing its text', () => {
    const lines = fingerprintLines(FP_A);
    expect(lines).toHaveLength(4);
    expect(lines[0]).toEqual(['AB:CD:EF:01:', '23:45:67:89:']);
    expect(lines.flat().join('')).toBe(FP_A);
  });

  it('converts datetime-local values in the chosen zone to ISO UTC and back', () => {
    const berlin = timeFormat('local', 'Europe/Berlin');
    expect(berlin.fromInput('2027-01-31T09:30')).toBe('2027-01-31T08:30:00Z');
    expect(berlin.fromInput('2027-07-31T09:30')).toBe('2027-07-31T07:30:00Z');
    expect(berlin.toInput('2027-07-31T07:30:00Z')).toBe('2027-07-31T09:30');
    const utc = timeFormat('utc', 'Europe/Berlin');
    expect(utc.fromInput('2027-01-31T09:30')).toBe('2027-01-31T09:30:00Z');
    expect(utc.toInput('2027-01-31T09:30:00Z')).toBe('2027-01-31T09:30');
    expect(utc.fromInput('')).toBe('');
    expect(utc.toInput('')).toBe('');
    // The computer's own zone, whatever it is here.
    const here = timeFormat('local');
    expect(here.fromInput(here.toInput('2027-03-01T12:45:00Z'))).toBe('2027-03-01T12:45:00Z');
  });
});

describe('the time formatter', () => {
  // 2026-05-01 10:54:30.250 UTC; Berlin is on summer time (UTC+2), New York on EDT (UTC-4).
  const at = '2026-05-01T10:54:30.250Z';

  it('writes UTC as 24-hour with seconds and says UTC', () => {
    const f = timeFormat('utc', 'Europe/Berlin');
    expect(f.timeZone).toBe('UTC');
    expect(f.dateTime(at)).toBe('2026-05-01 10:54:30 UTC');
    expect(f.time(at)).toBe('10:54:30');
    expect(f.zoneLabel(at)).toBe('UTC');
    expect(f.dateTime('2026-05-01T22:05:09Z')).toBe('2026-05-01 22:05:09 UTC');
    expect(f.dateTime('2026-05-01T00:00:00Z')).toBe('2026-05-01 00:00:00 UTC');
  });

  it('writes local time with the offset of that instant', () => {
    const berlin = timeFormat('local', 'Europe/Berlin');
    expect(berlin.timeZone).toBe('Europe/Berlin');
    expect(berlin.dateTime(at)).toBe('2026-05-01 12:54:30 UTC+02:00');
    expect(berlin.dateTime('2026-01-15T23:30:00Z')).toBe('2026-01-16 00:30:00 UTC+01:00');
    expect(berlin.zoneLabel('2026-01-15T23:30:00Z')).toBe('UTC+01:00');
    expect(timeFormat('local', 'America/New_York').dateTime(at)).toBe('2026-05-01 06:54:30 UTC-04:00');
    expect(timeFormat('local', 'Asia/Kolkata').time(at)).toBe('16:24:30');
    // A local zone at UTC+0 says UTC.
    expect(timeFormat('local', 'Europe/London').dateTime('2026-01-15T23:30:00Z')).toBe('2026-01-15 23:30:00 UTC');
  });

  it('shows a dash for no time and text that is no time as it is', () => {
    const f = timeFormat('utc');
    expect(f.dateTime(undefined)).toBe('—');
    expect(f.dateTime(null)).toBe('—');
    expect(f.dateTime('yesterday')).toBe('yesterday');
    expect(f.time('')).toBe('—');
  });

  it('writes every instant as Intl does, across daylight-saving changes, odd offsets and old zones', () => {
    // Zones whose changes fall off the hour (Lord Howe's half-hour summer time, Nepal's +05:45,
    // Chatham's +12:45/+13:45), south and north, Dublin's "negative" summer time, and Monrovia's
    // old offset of -00:44:30, which changed at an instant no quarter hour starts.
    const zones = ['UTC', 'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Pacific/Chatham', 'America/St_Johns', 'Europe/Dublin', 'Africa/Monrovia', 'America/Santiago'];
    const reference = (t: number, zone: string) => {
      const p = intlParts(t, zone);
      return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second} ${p.zone}`;
    };
    // The zone's offset at an instant, as Intl says it (its "UTC+hh:mm" label).
    const offsetAt = (t: number, zone: string) => intlParts(t, zone).zone;
    /** Every instant of 2026 at which the zone's offset changes (found from both sides to the millisecond). */
    const changesOf = (zone: string) => {
      const out: number[] = [];
      const step = 6 * 3_600_000;
      for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += step) {
        if (offsetAt(t, zone) === offsetAt(t + step, zone)) continue;
        let [lo, hi] = [t, t + step];
        while (hi - lo > 1) {
          const mid = Math.floor((lo + hi) / 2);
          if (offsetAt(mid, zone) === offsetAt(lo, zone)) lo = mid;
          else hi = mid;
        }
        out.push(hi);
      }
      return out;
    };
    const common: number[] = [];
    // Every 2 hours 13 minutes through 2026 ...
    for (let t = Date.UTC(2026, 0, 1); t < Date.UTC(2027, 0, 1); t += 7_980_000) common.push(t);
    // ... the milliseconds around each quarter hour of a few days, and instants from 1900 to 2100.
    for (let q = Date.UTC(2026, 2, 28); q < Date.UTC(2026, 3, 6); q += 900_000) common.push(q - 1, q, q + 999);
    for (let k = 0; k < 5000; k++) common.push(Date.UTC(1900, 0, 1) + Math.floor(((k * 2_654_435_761) % 4_294_967_296) / 4_294_967_296 * 6_311_390_400_000));
    common.push(Date.UTC(1972, 0, 7, 0, 44, 29), Date.UTC(1972, 0, 7, 0, 44, 30), Date.UTC(1972, 0, 7, 0, 44, 31));
    let changes = 0;
    for (const zone of zones) {
      const f = timeFormat('local', zone);
      // Each change of 2026 from both sides: the last millisecond before it, it, and the minutes and quarter hours around it.
      const around = changesOf(zone).flatMap((c) => [-3_600_000, -900_000, -60_000, -1, 0, 1, 999, 60_000, 900_000, 3_600_000].map((d) => c + d));
      changes += around.length / 10;
      const instants = [...common, ...around];
      const wrong = instants.filter((t) => f.dateTime(new Date(t).toISOString()) !== reference(t, zone));
      expect(wrong.map((t) => `${zone} ${new Date(t).toISOString()}: ${f.dateTime(new Date(t).toISOString())} ≠ ${reference(t, zone)}`).slice(0, 3)).toEqual([]);
    }
    // Berlin, New York, Lord Howe, Chatham, St John's, Dublin and Santiago change twice in 2026.
    expect(changes).toBeGreaterThanOrEqual(14);
  }, 90_000); // about 100,000 Intl calls (the changes are found, not swept for)
});

describe('a heartbeat\'s age', () => {
  it('says seconds under a minute (a lease is seconds long), then as agoText', () => {
    const now = Date.parse('2026-11-29T12:00:00.000Z');
    expect(agoSecondsText('2026-11-29T12:00:00.000Z', now)).toBe('0 s ago');
    expect(agoSecondsText('2026-11-29T11:59:53.500Z', now)).toBe('6 s ago');
    expect(agoSecondsText('2026-11-29T11:59:00.500Z', now)).toBe('59 s ago');
    expect(agoSecondsText('2026-11-29T11:58:00.000Z', now)).toBe('2 min ago');
    expect(agoSecondsText('not a time', now)).toBe('not a time');
  });
});
