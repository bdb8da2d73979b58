/**
 * The CSV file as rows of fields with their line numbers (PapaParse does the quoting), the
 * delimiter read from the header line, and broken quotes contained to their own line.
 *
 * A quoted value that is not closed makes a CSV parser read on to the next quote, or to the end
 * of the file: the rest of the file would become one value, and its rows would vanish behind one
 * error and the nonsense it leaves. Here a row with a quote problem is reported as that one
 * problem, at the line of its opening quote, and reading starts again on the next line, so every
 * other row is still checked on its own.
 */
import Papa from 'papaparse';

/** Delimiters a device file may use (C-14): the comma, and what spreadsheets write where the comma is the decimal mark. */
export const DELIMITERS = [',', ';', '\t'] as const;
export type Delimiter = (typeof DELIMITERS)[number];

export interface QuoteProblem {
  /** 'unclosed': no closing quote on the line; 'stray': a quote inside a quoted value ends it early. */
  kind: 'unclosed' | 'stray';
  /** 0-based index of the value whose quote is broken. */
  field: number;
}

export interface RawRow {
  /** 1-based line in the file where the row starts (with a quote problem: the line of the quote). */
  line: number;
  /** The row's values; with a quote problem only those before the broken one. */
  fields: string[];
  quote?: QuoteProblem;
}

const countNewlines = (text: string, from: number, to: number) => {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
};

/** The values of one line (without a quote it is a plain split, and much cheaper than a parser run). */
const fieldsOf = (line: string, delimiter: string): string[] => (line.includes('"') ? (Papa.parse<string[]>(line, { delimiter, newline: '\n' }).data[0] ?? []) : line.split(delimiter));

/**
 * The delimiter that splits the header line (the first line with text) into the most known
 * column names; the comma when none names any (the header check then says what is missing).
 */
export function detectDelimiter(text: string, known: readonly string[]): Delimiter {
  const header = text.split('\n', 50).find((l) => l.trim() !== '') ?? '';
  const names = new Set(known.map((k) => k.toLowerCase()));
  let best: Delimiter = ',';
  let bestCount = 0;
  for (const d of DELIMITERS) {
    const count = fieldsOf(header, d).filter((f) => names.has(f.trim().toLowerCase())).length;
    if (count > bestCount) [best, bestCount] = [d, count];
  }
  return best;
}

/**
 * The broken quotes of `text` by line, in one pass (CSV's quoting as PapaParse reads it: a quote
 * opens a value only at its start; `""` inside is a quote; it closes before a delimiter, a line
 * break or the end, white space allowed between). A broken quote's line is skipped and the scan goes on
 * at the next line, as the rows do; so the scan reads each line about once however many are
 * broken, where a parser run again after each problem would read the rest of the file each time.
 */
export function findQuoteProblems(text: string, delimiter: Delimiter): Map<number, { quote: number; kind: QuoteProblem['kind'] }> {
  const problems = new Map<number, { quote: number; kind: QuoteProblem['kind'] }>();
  const length = text.length;
  let i = 0;
  let line = 1;
  let fieldStart = true;
  while (i < length) {
    const c = text[i];
    if (fieldStart && c === '"') {
      let j = i + 1;
      let closedAt = -1;
      let stray = -1;
      for (;;) {
        const q = text.indexOf('"', j);
        if (q < 0) break;
        if (text[q + 1] === '"') {
          j = q + 2;
          continue;
        }
        let k = q + 1;
        while (k < length && text[k] !== '\n' && text[k] !== delimiter && /\s/.test(text[k]!)) k++;
        if (k >= length || text[k] === '\n' || text[k] === delimiter) closedAt = k;
        else stray = q;
        break;
      }
      if (closedAt >= 0) {
        line += countNewlines(text, i, closedAt);
        i = closedAt;
        fieldStart = false;
        continue;
      }
      const lineEnd = text.indexOf('\n', i);
      const sameLine = stray >= 0 && (lineEnd < 0 || stray < lineEnd);
      problems.set(line, { quote: i, kind: sameLine ? 'stray' : 'unclosed' });
      i = lineEnd < 0 ? length : lineEnd + 1;
      line += 1;
      fieldStart = true;
      continue;
    }
    if (c === '\n') line += 1;
    fieldStart = c === '\n' || c === delimiter;
    i += 1;
  }
  return problems;
}

/**
 * Every row of `text` (line breaks already `\n`), blank lines included, in file order. The lines
 * with a broken quote are left out of what PapaParse reads (as blank lines, so it counts the
 * same lines) and come back as rows of their own; should the parser still meet a broken quote,
 * it is run again from the next line.
 */
export function readRows(text: string, delimiter: Delimiter): RawRow[] {
  const problems = findQuoteProblems(text, delimiter);
  const broken: RawRow[] = [];
  let clean = text;
  if (problems.size) {
    const pieces: string[] = [];
    let kept = 0;
    for (const [line, { quote, kind }] of problems) {
      const lineStart = text.lastIndexOf('\n', quote - 1) + 1;
      const lineEnd = text.indexOf('\n', quote);
      const before = fieldsOf(text.slice(lineStart, quote), delimiter);
      const field = Math.max(0, before.length - 1);
      broken.push({ line, fields: before.slice(0, field), quote: { kind, field } });
      pieces.push(text.slice(kept, lineStart));
      kept = lineEnd < 0 ? text.length : lineEnd;
    }
    pieces.push(text.slice(kept));
    clean = pieces.join('');
  }
  const rows = parseRows(clean, delimiter).filter((r) => !problems.has(r.line));
  return broken.length ? [...rows, ...broken].sort((a, b) => a.line - b.line) : rows;
}

/** PapaParse over `text`; a row with a quote error becomes that one problem, and parsing restarts on the next line. */
export function parseRows(text: string, delimiter: Delimiter): RawRow[] {
  const rows: RawRow[] = [];
  let from = 0;
  let line = 1;
  while (from <= text.length) {
    const src = from === 0 ? text : text.slice(from);
    let start = 0;
    let resume: number | undefined;
    Papa.parse<string[]>(src, {
      delimiter,
      newline: '\n',
      skipEmptyLines: false,
      step: (r, parser) => {
        const quote = r.errors.find((e) => e.type === 'Quotes');
        if (quote?.index !== undefined) {
          const at = quote.index - 1; // PapaParse's index is just past the opening quote
          const quoteLine = line + countNewlines(src, start, at);
          const before = fieldsOf(src.slice(start, at), delimiter);
          const field = Math.max(0, before.length - 1);
          const lineEnd = src.indexOf('\n', at);
          const rest = src.slice(at + 1, lineEnd < 0 ? src.length : lineEnd).replaceAll('""', '');
          rows.push({ line: quoteLine, fields: before.slice(0, field), quote: { kind: rest.includes('"') ? 'stray' : 'unclosed', field } });
          resume = lineEnd < 0 ? text.length + 1 : from + lineEnd + 1;
          line = quoteLine + 1;
          parser.abort();
          return;
        }
        rows.push({ line, fields: r.data });
        line += countNewlines(src, start, r.meta.cursor);
        start = r.meta.cursor;
      },
    });
    if (resume === undefined) break;
    from = resume;
  }
  return rows;
}
