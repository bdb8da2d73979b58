/** Network text shown as text (issue 20.6): bidi controls made visible, long fields clipped with a mark. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BIDI_CONTROLS, clipText, netText, showBidi } from '../../../shared/text';

const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/;

describe('showBidi', () => {
  it('writes every bidi control as a visible mark, in the order sent', () => {
    expect(showBidi('safe\u202Egnp.exe')).toBe('safe⟪RLO⟫gnp.exe');
    expect(showBidi('\u202A\u202B\u202C\u202D\u202E\u2066\u2067\u2068\u2069\u200E\u200F\u061C')).toBe('⟪LRE⟫⟪RLE⟫⟪PDF⟫⟪LRO⟫⟪RLO⟫⟪LRI⟫⟪RLI⟫⟪FSI⟫⟪PDI⟫⟪LRM⟫⟪RLM⟫⟪ALM⟫');
    expect(showBidi('plain host-1, עברית')).toBe('plain host-1, עברית');
  });

  it('leaves no bidi control in any text and changes nothing else', () => {
    const unit = fc.constantFrom(...Object.keys(BIDI_CONTROLS), 'a', '⟪', '⟫', 'ש', ' ', '.');
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 30 }), (s) => {
        const out = showBidi(s);
        expect(BIDI.test(out)).toBe(false);
        expect(out.replace(/⟪[A-Z]{3}⟫/g, '')).toBe(s.replace(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g, '').replace(/⟪[A-Z]{3}⟫/g, ''));
      }),
    );
  });
});

describe('clipText', () => {
  it('keeps short text, clips long text with a visible mark naming what was left out, never splitting a surrogate pair', () => {
    expect(clipText('host-1', 10)).toBe('host-1');
    expect(clipText('x'.repeat(1024 * 1024), 200)).toBe(`${'x'.repeat(200)}…(+1,048,376 characters)`);
    expect(clipText('ab😀cd', 3)).toBe('ab…(+4 characters)');
    expect(netText('a\u202E'.repeat(10), 4)).toBe('a⟪RLO⟫a⟪RLO⟫…(+16 characters)');
  });
});
