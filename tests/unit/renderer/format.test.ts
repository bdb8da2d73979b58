import { describe, expect, it } from 'vitest';
import { expiryText, fingerprintLines, formatDuration, isoToLocalInput, localInputToIso } from '../../../renderer/components/format';

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

  it('converts datetime-local values to ISO UTC and back', () => {
    const iso = localInputToIso('2027-01-31T09:30');
    expect(iso).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
    expect(new Date(iso).getTime()).toBe(new Date('2027-01-31T09:30').getTime());
    expect(isoToLocalInput(iso)).toBe('2027-01-31T09:30');
    expect(localInputToIso('')).toBe('');
    expect(isoToLocalInput('')).toBe('');
  });
});
