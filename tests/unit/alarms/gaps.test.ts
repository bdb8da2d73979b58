/** Gap detection on message_id and the cursor rule of the broker stream (MN-AL9). */
import { describe, expect, it } from 'vitest';
import { GapTracker, StreamCursor } from '../../../electron/alarms/gaps';

describe('GapTracker', () => {
  it('sees the next message, a gap with what is missing, second deliveries and a node counting again', () => {
    const g = new GapTracker();
    expect(g.observe('a', 5)).toEqual({ kind: 'first' });
    expect(g.observe('a', 6)).toEqual({ kind: 'next' });
    expect(g.observe('a', 10)).toEqual({ kind: 'gap', missing: 3, from: 7, to: 9 });
    expect(g.observe('a', 8)).toEqual({ kind: 'old' });
    expect(g.observe('a', 10)).toEqual({ kind: 'old' });
    expect(g.lastSeen('a')).toBe(10);
    expect(g.observe('a', 11)).toEqual({ kind: 'next' });
    expect(g.observe('a', 1)).toEqual({ kind: 'restart' });
    expect(g.observe('a', 2)).toEqual({ kind: 'next' });
  });

  it('counts each node on its own, from what was stored', () => {
    const g = new GapTracker(new Map([['a', 100]]));
    expect(g.observe('a', 101)).toEqual({ kind: 'next' });
    expect(g.observe('b', 7)).toEqual({ kind: 'first' });
    expect(g.observe('a', 103)).toMatchObject({ kind: 'gap', missing: 1 });
    expect(g.snapshot()).toEqual(new Map([['a', 103], ['b', 7]]));
  });
});

describe('GapTracker, the message-id rule (issue 20)', () => {
  it('does not believe one far-away ID: it asks for a check and later gaps are still found', () => {
    const g = new GapTracker(new Map([['a', 100]]));
    expect(g.observe('a', 999_999_999_999_999)).toEqual({ kind: 'jump', from: 100, to: 999_999_999_999_999 });
    expect(g.lastSeen('a')).toBe(100);
    expect(g.observe('a', 101)).toEqual({ kind: 'next' });
    expect(g.observe('a', 162)).toEqual({ kind: 'gap', missing: 60, from: 102, to: 161 });
    g.verified();
    expect(g.lastSeen('a')).toBe(162);
  });

  it('follows a node that really renumbered once it goes on counting and a backfill checked it', () => {
    const g = new GapTracker(new Map([['a', 999_999_999_999_999]]), { confirmRun: 3 });
    expect(g.observe('a', 500)).toMatchObject({ kind: 'jump' });
    expect(g.observe('a', 501)).toEqual({ kind: 'next' });
    expect(g.observe('a', 502)).toEqual({ kind: 'next' });
    expect(g.lastSeen('a')).toBe(999_999_999_999_999); // not before a backfill checked it
    g.verified();
    expect(g.lastSeen('a')).toBe(502);
    expect(g.observe('a', 560)).toMatchObject({ kind: 'gap', missing: 57 });
  });
});

describe('StreamCursor', () => {
  const m = (messageId: number, newestEventMs?: number) => ({ director: 'a', messageId, ...(newestEventMs !== undefined ? { newestEventMs } : {}) });

  it('moves the cursor with a stream without holes', () => {
    const c = new StreamCursor();
    expect(c.batch([m(1, 1000), m(2, 1500), m(3, 1200)])).toMatchObject({ gap: false, cursorMs: 1500 });
    expect(c.batch([m(4)]).cursorMs).toBeUndefined(); // a handling carries no change time
  });

  it('holds the cursor from a gap until a backfill that started after it has finished', () => {
    const c = new StreamCursor();
    c.batch([m(1, 1000)]);
    const early = c.backfillStarted();
    const gap = c.batch([m(2, 2000), m(5, 5000)]);
    expect(gap).toMatchObject({ gap: true });
    expect(gap.cursorMs).toBeUndefined();
    expect(c.holeOpen).toBe(true);
    // The backfill that was running when the gap came may have read the node too early: the hole stays.
    expect(c.backfillFinished(early)).toBe(false);
    expect(c.batch([m(6, 6000)]).cursorMs).toBeUndefined();
    const late = c.backfillStarted();
    expect(c.batch([m(7, 7000)]).cursorMs).toBeUndefined();
    expect(c.backfillFinished(late)).toBe(true);
    expect(c.holeOpen).toBe(false);
    expect(c.batch([m(8, 8000)]).cursorMs).toBe(8000);
  });

  it('does not open a hole for second deliveries', () => {
    const c = new StreamCursor();
    c.batch([m(1, 1), m(2, 2), m(3, 3)]);
    expect(c.batch([m(2, 2), m(3, 3), m(4, 4)])).toMatchObject({ gap: false, cursorMs: 4 });
  });
});
