/**
 * The CSVs the bulk onboarding dialog writes: the template (the header and one example row), and
 * the results (every line of the file with what became of it). Both go through the one CSV writer.
 */
import { toCsv } from '../../../../shared/csv';
import { CSV_COLUMNS, type BulkJobState } from '../../../../shared/model/inventory';
import type { CsvValues, ParsedCsv } from './csv';
import { resultLabel } from './bulk-result';

const EXAMPLE: CsvValues = { deviceName: 'branch-berlin-01', siteId: '117', orgName: 'Acme', serialNumber: 'SN-4C1D-0001', deviceGroup: 'branch-small', country: 'DE', latitude: '52.52', longitude: '13.405' };

/** The header and one example row. */
export const templateCsv = (): string => toCsv([CSV_COLUMNS, CSV_COLUMNS.map((c) => EXAMPLE[c])]);

/**
 * Every line of the file with what became of it: the job's outcome, or why it was not sent. The
 * values are the operator's file as read, so they go through the one CSV writer like any export.
 */
export function resultsCsv(parsed: ParsedCsv, job: BulkJobState | undefined): string {
  const outcome = new Map(job?.rows.map((r) => [r.line, r]) ?? []);
  const issues = new Map<number, string[]>();
  for (const i of parsed.issues) issues.set(i.line, [...(issues.get(i.line) ?? []), i.field ? `${i.field}: ${i.message}` : i.message]);
  const data = parsed.records.map((r) => {
    const o = outcome.get(r.line);
    const bad = issues.get(r.line);
    const result = bad ? 'invalid' : o ? resultLabel(o) : 'not sent';
    const message = bad ? bad.join('; ') : o?.message ? (o.field ? `${o.field}: ${o.message}` : o.message) : '';
    return [r.line, ...CSV_COLUMNS.map((c) => r.values[c]), result, message];
  });
  return toCsv([['line', ...CSV_COLUMNS, 'result', 'message'], ...data]);
}
