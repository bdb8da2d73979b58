/**
 * Text that came from the network, shown as text (issue 20.6). A name or message from a node, the
 * bus or an EDR tenant may hold Unicode bidi controls: `safe\u202Egnp.exe` displays as
 * "safeexe.png". `showBidi` writes each control as a visible mark (⟪RLO⟫), so the characters are
 * shown in the order they were sent; the window also isolates each such field (`<bdi>`,
 * renderer/components/NetText.tsx) so right-to-left letters in it cannot reorder what stands
 * around it. `clipText` shortens a very long field for a page (the report) with a visible mark.
 * Pure TypeScript: main and the window both use it.
 */

/** The bidi controls (embeddings, overrides, isolates, marks) and the names they are shown by. */
export const BIDI_CONTROLS: Readonly<Record<string, string>> = {
  '\u202A': 'LRE',
  '\u202B': 'RLE',
  '\u202C': 'PDF',
  '\u202D': 'LRO',
  '\u202E': 'RLO',
  '\u2066': 'LRI',
  '\u2067': 'RLI',
  '\u2068': 'FSI',
  '\u2069': 'PDI',
  '\u200E': 'LRM',
  '\u200F': 'RLM',
  '\u061C': 'ALM',
};

/** `s` with every bidi control written as a visible mark, e.g. `safe⟪RLO⟫gnp.exe`. */
export function showBidi(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const name = BIDI_CONTROLS[s.charAt(i)];
    if (name === undefined) continue;
    out += `${s.slice(from, i)}⟪${name}⟫`;
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

/**
 * `s` cut to at most `max` characters (whole code points) with a visible mark of what was left
 * out: `…(+1,048,320 characters)`. Shorter text is returned as it is.
 */
export function clipText(s: string, max: number): string {
  if (s.length <= max) return s;
  let end = max;
  // Never split a surrogate pair.
  const c = s.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end -= 1;
  return `${s.slice(0, end)}…(+${formatCount(s.length - end)} characters)`;
}

/** A field from the network as a page shows it: bidi controls visible, and clipped when `max` is given. */
export const netText = (s: string, max?: number): string => showBidi(max === undefined ? s : clipText(s, max));

const COUNT = new Intl.NumberFormat('en');
/** 1234 → "1,234": every count the app writes, in main and in the window (one formatter, made once). */
export const formatCount = (n: number): string => COUNT.format(n);

/** "1 row", "2,500 rows": a count with the word for it (`many` defaults to `one` + "s"). */
export const countOf = (n: number, one: string, many = `${one}s`): string => `${formatCount(n)} ${n === 1 ? one : many}`;
