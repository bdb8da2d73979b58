/**
 * The one CSV writer (issue 20.6): every CSV the project writes goes through here — the ZTA
 * export and the CLI's `zta export`, `alarms export`, the bulk onboarding template and results.
 * Main and the window both use it, so it is pure TypeScript.
 *
 * What it guards, with plain character tests rather than a regular expression (whose flags decide
 * whether `^` and `.` cross a line break: PapaParse's `escapeFormulae` pattern does not, so a cell
 * `=cmd…` with a line break in it went out as a formula):
 * - A text cell whose first character is = + - @ tab CR or LF, or whose first character after
 *   leading spaces is = + - @, is written with a single quote in front and in double quotes
 *   (OWASP's advice), whatever follows it. A finite number or a boolean is written as itself.
 * - Control characters (C0 other than tab, LF and CR; DEL; C1, which holds the 8-bit CSI and OSC)
 *   are written as their escaped code point (`\u001B`), so no terminal sequence reaches a `cat`
 *   of the file and nothing hides in a cell.
 * - A cell holding the delimiter (or `;` or a tab, which spreadsheets also split on), a quote, a
 *   line break, a byte order mark or leading or trailing spaces is quoted, quotes doubled.
 * Lines end with CRLF (RFC 4180).
 */

export type CsvCell = string | number | boolean | null | undefined;

/** C0 except tab, LF and CR; DEL; C1 (0x80–0x9F). */
const isControl = (c: number) => (c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || (c >= 0x7f && c <= 0x9f);

const codePoint = (c: number) => `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;

/** `s` with every control character (see isControl) written as its escaped code point, e.g. `\u001B`. */
export function escapeControls(s: string): string {
  let out = '';
  let from = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (!isControl(c)) continue;
    out += s.slice(from, i) + codePoint(c);
    from = i + 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

const FORMULA_FIRST = new Set(['=', '+', '-', '@', '\t', '\r', '\n']);
const FORMULA_AFTER_SPACES = new Set(['=', '+', '-', '@']);

/** Whether a spreadsheet could read the text as a formula (or a DDE call). */
export function startsLikeFormula(s: string): boolean {
  if (s.length === 0) return false;
  if (FORMULA_FIRST.has(s.charAt(0))) return true;
  let i = 0;
  while (s.charAt(i) === ' ') i++;
  return i > 0 && FORMULA_AFTER_SPACES.has(s.charAt(i));
}

const QUOTE_IF = new Set([',', ';', '\t', '"', '\r', '\n', '\uFEFF']);
const needsQuotes = (s: string) => {
  if (s.startsWith(' ') || s.endsWith(' ')) return true;
  for (let i = 0; i < s.length; i++) if (QUOTE_IF.has(s.charAt(i))) return true;
  return false;
};

/** One cell as CSV text: controls escaped, a formula neutralised, quoted where needed. */
export function csvCell(v: CsvCell): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  let s = escapeControls(String(v));
  const formula = startsLikeFormula(s);
  if (formula) s = `'${s}`;
  return formula || needsQuotes(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/** One record, with its CRLF. */
export const csvLine = (cells: readonly CsvCell[]): string => `${cells.map(csvCell).join(',')}\r\n`;

/** Records as CSV text, each ending with CRLF. */
export const toCsv = (rows: Iterable<readonly CsvCell[]>): string => {
  let out = '';
  for (const r of rows) out += csvLine(r);
  return out;
};
