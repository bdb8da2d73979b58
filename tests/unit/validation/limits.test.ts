/** Issue 20.5: the one function every network text goes through. */
import { describe, expect, it } from 'vitest';
import { boundLine, boundText, isTruncated, truncationMark } from '../../../shared/model/limits';

describe('boundText', () => {
  it('keeps a text within its limit as it is, and null or undefined', () => {
    expect(boundText('edge-1', 256)).toBe('edge-1');
    expect(boundText('x'.repeat(256), 256)).toBe('x'.repeat(256));
    expect(boundText(null, 10)).toBeNull();
    expect(boundText(undefined, 10)).toBeUndefined();
  });

  it('cuts a longer one to the limit, ending in a mark with its full size', () => {
    const out = boundText('x'.repeat(10_485_760), 4096);
    expect(out).toHaveLength(4096);
    expect(out.endsWith('… [truncated, 10,485,760 characters]')).toBe(true);
    expect(isTruncated(out)).toBe(true);
    expect(isTruncated('x'.repeat(4096))).toBe(false);
    expect(out).toBe(`${'x'.repeat(4096 - truncationMark(10_485_760).length)}${truncationMark(10_485_760)}`);
  });

  it('never splits a surrogate pair, and uses a bare "…" under a limit too small for the mark', () => {
    const out = boundText('😀'.repeat(100), 101);
    expect(out).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    expect(boundText('abcdefghijklmnopqrstuvwxyz', 10)).toBe('abcdefghi…');
  });
});

describe('boundLine', () => {
  it('folds line breaks and cuts with "…"', () => {
    expect(boundLine('a\n\n b\tc', 200)).toBe('a b c');
    const out = boundLine('y'.repeat(1000), 200);
    expect(out).toHaveLength(200);
    expect(out.endsWith('y…')).toBe(true);
  });
});
