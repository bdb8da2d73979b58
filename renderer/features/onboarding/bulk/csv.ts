/**
 * The bulk onboarding CSV (MN-48): header line with the columns of CSV_COLUMNS in any order,
 * names case-insensitive, extra columns ignored; one device per line. Every row is checked with
 * the shared DeviceRecord schema, and names and site IDs must be unique within the file (the
 * first occurrence wins, later ones are reported). Line numbers are the file's own (the header
 * is line 1; a quoted field spanning lines counts them all).
 */
import Papa from 'papaparse';
import { CSV_COLUMNS, DeviceRecord, type BulkJobState } from '../../../../shared/model/inventory';

export type CsvColumn = (typeof CSV_COLUMNS)[number];
export type CsvValues = Record<CsvColumn, string>;
export interface CsvRecord {
  line: number;
  values: CsvValues;
}
export interface RowIssue {
  line: number;
  deviceName: string;
  field: string;
  message: string;
}
export interface ParsedCsv {
  records: CsvRecord[];
  valid: { line: number; device: DeviceRecord }[];
  issues: RowIssue[];
  /** Lines with at least one issue. */
  badLines: Set<number>;
  fileError?: string;
  ignoredColumns: string[];
}

export const MAX_ROWS = 20_000;

const EXAMPLE: CsvValues = { deviceName: 'branch-berlin-01', siteId: '117', orgName: 'Acme', serialNumber: 'SN-4C1D-0001', deviceGroup: 'branch-small', country: 'DE', latitude: '52.52', longitude: '13.405' };

/** The header and one example row. */
export const templateCsv = (): string => `${Papa.unparse({ fields: [...CSV_COLUMNS], data: [CSV_COLUMNS.map((c) => EXAMPLE[c])] })}\r\n`;

const fieldOf = (path: PropertyKey[]): string => String(path[path.length - 1] ?? '');

function rawRows(text: string): { fields: string[]; line: number; error?: string }[] {
  const out: { fields: string[]; line: number; error?: string }[] = [];
  let line = 1;
  let start = 0;
  Papa.parse<string[]>(text, {
    delimiter: '',
    delimitersToGuess: [',', ';', '\t'],
    skipEmptyLines: false,
    step: (r) => {
      const end = r.meta.cursor;
      const rowLine = line;
      for (let i = start; i < end; i++) if (text.charCodeAt(i) === 10) line++;
      start = end;
      const error = r.errors.find((e) => e.code !== 'UndetectableDelimiter' && e.code !== 'TooFewFields' && e.code !== 'TooManyFields');
      out.push({ fields: r.data, line: rowLine, ...(error ? { error: error.message } : {}) });
    },
  });
  return out;
}

export function parseDeviceCsv(input: string): ParsedCsv {
  const text = input.replace(/^\uFEFF/, '');
  const result: ParsedCsv = { records: [], valid: [], issues: [], badLines: new Set(), ignoredColumns: [] };
  const rows = rawRows(text).filter((r) => r.fields.some((f) => f.trim() !== ''));
  const header = rows.shift();
  if (!header) return { ...result, fileError: 'The file is empty: it needs a header line and one line per device.' };
  const names = header.fields.map((h) => h.trim().toLowerCase());
  const at = {} as Record<CsvColumn, number>;
  const missing: string[] = [];
  for (const c of CSV_COLUMNS) {
    const i = names.indexOf(c.toLowerCase());
    if (i < 0) missing.push(c);
    at[c] = i;
  }
  result.ignoredColumns = header.fields.filter((h, i) => h.trim() && !CSV_COLUMNS.some((c) => at[c] === i)).map((h) => h.trim());
  if (missing.length) {
    return { ...result, fileError: `The header line has no column ${missing.map((m) => `“${m}”`).join(', ')}. It needs ${CSV_COLUMNS.join(', ')} (any order).` };
  }
  if (rows.length === 0) return { ...result, fileError: 'The file has a header line but no device rows.' };

  const names1 = new Map<string, number>();
  const sites1 = new Map<string, number>();
  const add = (line: number, deviceName: string, field: string, message: string) => {
    result.issues.push({ line, deviceName, field, message });
    result.badLines.add(line);
  };
  for (const row of rows) {
    const values = {} as CsvValues;
    for (const c of CSV_COLUMNS) values[c] = row.fields[at[c]] ?? '';
    result.records.push({ line: row.line, values });
    const name = values.deviceName.trim();
    if (row.error) add(row.line, name, '', row.error);
    const parsed = DeviceRecord.safeParse({
      deviceName: values.deviceName,
      siteId: values.siteId,
      orgName: values.orgName,
      serialNumber: values.serialNumber,
      deviceGroup: values.deviceGroup,
      locationInfo: { country: values.country, latitude: values.latitude, longitude: values.longitude },
    });
    if (!parsed.success) for (const i of parsed.error.issues) add(row.line, name, fieldOf(i.path), i.message);
    const nameKey = name.toLowerCase();
    if (nameKey) {
      const first = names1.get(nameKey);
      if (first === undefined) names1.set(nameKey, row.line);
      else add(row.line, name, 'deviceName', `Duplicate device name: already on line ${first}.`);
    }
    const site = values.siteId.trim();
    const siteKey = /^\d+$/.test(site) ? String(Number(site)) : site;
    if (siteKey) {
      const first = sites1.get(siteKey);
      if (first === undefined) sites1.set(siteKey, row.line);
      else add(row.line, name, 'siteId', `Duplicate site ID ${site}: already on line ${first}.`);
    }
    if (parsed.success && !result.badLines.has(row.line)) result.valid.push({ line: row.line, device: parsed.data });
  }
  if (result.valid.length > MAX_ROWS) result.fileError = `The file has ${result.valid.length.toLocaleString('en')} valid rows; at most ${MAX_ROWS.toLocaleString('en')} go in one run. Split the file.`;
  return result;
}

/** Every line of the file with what became of it: the job's outcome, or why it was not sent. */
export function resultsCsv(parsed: ParsedCsv, job: BulkJobState | undefined): string {
  const outcome = new Map(job?.rows.map((r) => [r.line, r]) ?? []);
  const issues = new Map<number, string[]>();
  for (const i of parsed.issues) issues.set(i.line, [...(issues.get(i.line) ?? []), i.field ? `${i.field}: ${i.message}` : i.message]);
  const data = parsed.records.map((r) => {
    const o = outcome.get(r.line);
    const bad = issues.get(r.line);
    const result = bad ? 'invalid' : (o?.outcome ?? 'not sent');
    const message = bad ? bad.join('; ') : o?.message ? (o.field ? `${o.field}: ${o.message}` : o.message) : '';
    return [r.line, ...CSV_COLUMNS.map((c) => r.values[c]), result, message];
  });
  return `${Papa.unparse({ fields: ['line', ...CSV_COLUMNS, 'result', 'message'], data })}\r\n`;
}

/** Offers text as a file download through a Blob link. */
export function downloadText(text: string, fileName: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
