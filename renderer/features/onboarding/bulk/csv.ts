/**
 * The bulk onboarding CSV (MN-48): header line with the columns of CSV_COLUMNS in any order,
 * names case-insensitive, extra columns ignored; one device per line, values separated by
 * commas, semicolons or tabs (C-14). A file that is not UTF-8 text is refused as what it is
 * (csv-bytes.ts). Every problem is reported once, at the depth where it is: a broken quote or a
 * line with the wrong number of values is one problem for its line (its values are not checked
 * one by one, they would only echo it); otherwise every value is checked with the shared
 * DeviceRecord schema (one problem per column), and names and site IDs must be unique within the
 * file (the first occurrence wins, later ones are reported). Line numbers are the file's own
 * (the header is line 1; a quoted value spanning lines counts them all).
 *
 * The jobs around the parse have files of their own: the chosen file (csv-file.ts: its size, and
 * its bytes as text, csv-bytes.ts), text into rows (csv-read.ts), and the CSVs the dialog writes
 * (csv-export.ts: the template and the results).
 */
import { formatCount } from '../../../components/format';
import { CSV_COLUMNS, DeviceRecord } from '../../../../shared/model/inventory';
import { detectDelimiter, readRows, type Delimiter, type QuoteProblem, type RawRow } from './csv-read';

export type CsvColumn = (typeof CSV_COLUMNS)[number];
export type CsvValues = Record<CsvColumn, string>;
export interface CsvRecord {
  line: number;
  values: CsvValues;
}
export interface RowIssue {
  line: number;
  deviceName: string;
  /** The column the problem is in ('' for the whole line). */
  field: CsvColumn | '';
  /** That column's name as the file's header writes it. */
  column: string;
  /** What is wrong and what to do, in words. */
  message: string;
}
export interface ParsedCsv {
  records: CsvRecord[];
  valid: { line: number; device: DeviceRecord }[];
  issues: RowIssue[];
  /** Lines with at least one issue. */
  badLines: Set<number>;
  /** Why the whole file cannot be used (not text, no header, no rows, too many rows). */
  fileError?: string;
  ignoredColumns: string[];
  delimiter: Delimiter;
}

export const MAX_ROWS = 20_000;

const DELIMITER_NAME: Record<Delimiter, string> = { ',': 'comma', ';': 'semicolon', '\t': 'tab' };

const nothing = (delimiter: Delimiter): ParsedCsv => ({ records: [], valid: [], issues: [], badLines: new Set(), ignoredColumns: [], delimiter });

/** A file that cannot be used at all, and why. */
export const refusedCsv = (fileError: string, delimiter: Delimiter = ','): ParsedCsv => ({ ...nothing(delimiter), fileError });

const list = (items: readonly string[]) => (items.length < 2 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`);
const squash = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** Where each column is in the header line, or why the header cannot be used. */
function mapHeader(names: readonly string[]): { at: Record<CsvColumn, number>; ignored: string[] } | { error: string } {
  const lower = names.map((h) => h.trim().toLowerCase());
  const at = {} as Record<CsvColumn, number>;
  const missing: CsvColumn[] = [];
  for (const c of CSV_COLUMNS) {
    const i = lower.indexOf(c.toLowerCase());
    const again = i < 0 ? -1 : lower.indexOf(c.toLowerCase(), i + 1);
    if (again >= 0) return { error: `The header line names the column “${c}” twice (columns ${i + 1} and ${again + 1}); keep one.` };
    if (i < 0) missing.push(c);
    at[c] = i;
  }
  const ignored = names.map((h, i) => [h.trim(), i] as const).filter(([h, i]) => h && !CSV_COLUMNS.some((c) => at[c] === i));
  if (missing.length === CSV_COLUMNS.length) {
    return { error: `The first line is not the header line: it names none of the columns. Put the header line first: ${CSV_COLUMNS.join(',')} (the template has it).` };
  }
  if (missing.length) {
    // "Device Name" or "serial_number" for a column: say which name it should have.
    const renames = ignored.flatMap(([h]) => missing.filter((m) => squash(m) === squash(h)).map((m) => `rename “${h}” to ${m}`));
    const fix = renames.length ? ` ${list(renames).replace(/^r/, 'R')}.` : ` It needs ${CSV_COLUMNS.join(', ')} (any order, any letter case).`;
    return { error: `The header line has no column ${missing.map((m) => `“${m}”`).join(', ')}.${fix}` };
  }
  return { at, ignored: ignored.map(([h]) => h) };
}

const QUOTE_MESSAGE: Record<QuoteProblem['kind'], string> = {
  unclosed: 'A quoted value is not closed — add the closing " or remove the opening one.',
  stray: 'A quote inside a quoted value ends it too early — write a quote inside a value as two quotes ("") or remove it.',
};

/** The schema's message, or a plainer one where a spreadsheet's habit explains the value. */
function valueMessage(field: string, value: string, message: string): string {
  const decimalComma = /^\s*[-+]?\d+,\d+\s*$/.test(value);
  if ((field === 'latitude' || field === 'longitude') && decimalComma) return `Write the ${field} with a decimal point: ${value.trim().replace(',', '.')}, not ${value.trim()}.`;
  return message;
}

export function parseDeviceCsv(input: string): ParsedCsv {
  // One kind of line break (CRLF, LF or a lone CR alike), so lines count the same everywhere.
  const text = input.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const delimiter = detectDelimiter(text, CSV_COLUMNS);
  const result = nothing(delimiter);
  const rows = readRows(text, delimiter).filter((r) => r.quote || r.fields.some((f) => f.trim() !== ''));
  const header = rows.shift();
  if (!header) return refusedCsv('The file is empty: it needs a header line and one line per device (the template shows the format).', delimiter);
  if (header.quote) return refusedCsv(`Line ${header.line}, the header line: ${QUOTE_MESSAGE[header.quote.kind]}`, delimiter);
  const mapped = mapHeader(header.fields);
  if ('error' in mapped) return refusedCsv(mapped.error, delimiter);
  const { at } = mapped;
  result.ignoredColumns = mapped.ignored;
  if (rows.length === 0) return refusedCsv('The file has a header line but no device rows.', delimiter);

  const width = header.fields.length;
  const columnAt = (i: number): { field: CsvColumn | ''; column: string } => ({ field: CSV_COLUMNS.find((c) => at[c] === i) ?? '', column: header.fields[i]?.trim() || `column ${i + 1}` });
  const columnOf = (c: CsvColumn) => header.fields[at[c]]!.trim();
  const names1 = new Map<string, number>();
  const sites1 = new Map<string, number>();
  const add = (line: number, deviceName: string, field: CsvColumn | '', column: string, message: string) => {
    result.issues.push({ line, deviceName, field, column, message });
    result.badLines.add(line);
  };
  /** The one problem of a line whose values cannot be told apart, if it has one. */
  const lineProblem = (row: RawRow): { field: CsvColumn | ''; column: string; message: string } | undefined => {
    if (row.quote) return { ...columnAt(row.quote.field), message: QUOTE_MESSAGE[row.quote.kind] };
    const n = row.fields.length;
    const d = DELIMITER_NAME[delimiter];
    if (n > width && row.fields.slice(width).some((f) => f.trim() !== '')) {
      return { field: '', column: '', message: `The line has ${n} values but the header has ${width} columns. Put double quotes around a value that contains a ${d}, or remove the extra ${d}s.` };
    }
    const lacking = CSV_COLUMNS.filter((c) => at[c] >= n).map(columnOf);
    if (lacking.length) {
      return { field: '', column: '', message: `The line has ${n} ${n === 1 ? 'value' : 'values'} but the header has ${width} columns: ${list(lacking)} ${lacking.length === 1 ? 'has' : 'have'} no value. Add ${lacking.length === 1 ? 'it' : 'them'} (an empty value still needs its ${d}).` };
    }
    return undefined;
  };

  for (const row of rows) {
    const values = {} as CsvValues;
    for (const c of CSV_COLUMNS) values[c] = row.fields[at[c]] ?? '';
    result.records.push({ line: row.line, values });
    const name = values.deviceName.trim();
    const problem = lineProblem(row);
    if (problem) {
      add(row.line, name, problem.field, problem.column, problem.message);
      continue;
    }
    const parsed = DeviceRecord.safeParse({
      deviceName: values.deviceName,
      siteId: values.siteId,
      orgName: values.orgName,
      serialNumber: values.serialNumber,
      deviceGroup: values.deviceGroup,
      locationInfo: { country: values.country, latitude: values.latitude, longitude: values.longitude },
    });
    if (!parsed.success) {
      // One problem per column: the first rule a value breaks (an empty one breaks them all).
      const seen = new Set<string>();
      for (const i of parsed.error.issues) {
        const key = String(i.path[i.path.length - 1] ?? '');
        if (seen.has(key)) continue;
        seen.add(key);
        const field = CSV_COLUMNS.find((c) => c === key);
        add(row.line, name, field ?? '', field ? columnOf(field) : '', field ? valueMessage(field, values[field], i.message) : i.message);
      }
    }
    const nameKey = name.toLowerCase();
    if (nameKey) {
      const first = names1.get(nameKey);
      if (first === undefined) names1.set(nameKey, row.line);
      else add(row.line, name, 'deviceName', columnOf('deviceName'), `Line ${first} has the same device name; each device once per file: rename or remove one of them.`);
    }
    const site = values.siteId.trim();
    const siteKey = /^\d+$/.test(site) ? String(Number(site)) : site;
    if (siteKey) {
      const first = sites1.get(siteKey);
      if (first === undefined) sites1.set(siteKey, row.line);
      else add(row.line, name, 'siteId', columnOf('siteId'), `Line ${first} has the same site ID ${site}; each device needs its own site ID.`);
    }
    if (parsed.success && !result.badLines.has(row.line)) result.valid.push({ line: row.line, device: parsed.data });
  }
  if (result.valid.length > MAX_ROWS) result.fileError = `The file has ${formatCount(result.valid.length)} valid rows; at most ${formatCount(MAX_ROWS)} go in one run. Split the file.`;
  return result;
}
