/**
 * The stored alarms as text (`northbound alarms export`, MN-AL14): one JSON object per line
 * (JSON Lines), or CSV with a header line and CRLF through the one CSV writer (`shared/csv.ts`:
 * alarm texts and device names come from devices and must never run as a spreadsheet formula or
 * carry a terminal escape). Newest change first, in chunks, so a store of any size streams out.
 */
import { csvLine, toCsv } from '../../shared/csv';
import type { AlarmView } from '../../shared/model/alarms';
import type { AlarmStore } from './store/alarm-store';

export type AlarmExportFormat = 'jsonl' | 'csv';
export const ALARM_EXPORT_COLUMNS = [
  'source',
  'sourceName',
  'id',
  'device',
  'deviceName',
  'org',
  'object',
  'type',
  'specificProblem',
  'severity',
  'cleared',
  'text',
  'lastChangeAt',
  'changes',
  'handlingState',
  'handlingUser',
  'handlingAt',
  'handlingDescription',
] as const;
const CHUNK = 1_000;

type ExportRow = AlarmView & { source: string; sourceName?: string };

const flat = (r: ExportRow): Record<(typeof ALARM_EXPORT_COLUMNS)[number], string | number | boolean> => ({
  source: r.source,
  sourceName: r.sourceName ?? '',
  id: r.id,
  device: r.device,
  deviceName: r.deviceName,
  org: r.org,
  object: r.object,
  type: r.type,
  specificProblem: r.specificProblem,
  severity: r.severity,
  cleared: r.cleared,
  text: r.text,
  lastChangeAt: r.lastChangeAt,
  changes: r.changes,
  handlingState: r.handling?.state ?? '',
  handlingUser: r.handling?.user ?? '',
  handlingAt: r.handling?.at ?? '',
  handlingDescription: r.handling?.description ?? '',
});

/** The export in pieces of text, each with the rows it carries. */
/**
 * `sourceNames`: the connections of the data folder by id (its settings): `source` is the id the
 * alarms were stored under, `sourceName` the connection's name where it is known ('' otherwise,
 * e.g. a source `alarms follow` filled).
 */
export async function* alarmExportPieces(store: Pick<AlarmStore, 'exportAlarms'>, format: AlarmExportFormat, sinceMs = 0, sourceNames: ReadonlyMap<string, string> = new Map()): AsyncGenerator<{ text: string; rows: number }> {
  if (format === 'csv') yield { text: csvLine(ALARM_EXPORT_COLUMNS), rows: 0 };
  let chunk: ExportRow[] = [];
  const out = (rows: ExportRow[]) =>
    format === 'csv'
      ? toCsv(
          rows.map((r) => {
            const f = flat(r);
            return ALARM_EXPORT_COLUMNS.map((c) => f[c]);
          }),
        )
      : `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;
  for await (const stored of store.exportAlarms(sinceMs)) {
    const name = sourceNames.get(stored.source);
    const row: ExportRow = name === undefined ? stored : { ...stored, sourceName: name };
    chunk.push(row);
    if (chunk.length >= CHUNK) {
      yield { text: out(chunk), rows: chunk.length };
      chunk = [];
    }
  }
  if (chunk.length > 0) yield { text: out(chunk), rows: chunk.length };
}

/**
 * `--since`: an ISO date or time (`2026-05-01`, `2026-05-01T12:00:00Z`), epoch milliseconds, or a
 * duration back from now (`90m`, `24h`, `7d`). Undefined when it is none of these.
 */
export function parseSince(text: string, nowMs: number): number | undefined {
  const t = text.trim();
  const d = /^(\d+)\s*(m|h|d)$/i.exec(t);
  if (d) return nowMs - Number(d[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[d[2]!.toLowerCase() as 'm' | 'h' | 'd'];
  if (/^\d{10,16}$/.test(t)) return Number(t);
  if (!/^\d{4}-\d{2}-\d{2}/.test(t)) return undefined;
  const ms = Date.parse(t);
  return Number.isNaN(ms) ? undefined : ms;
}
