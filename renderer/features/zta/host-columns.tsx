/**
 * The columns of the assessment-by-host table. The three assessment columns hold Falcon's OS,
 * sensor and overall ZTA (1–100, higher is better, as the vendor gives them) and for Defender its
 * exposure level, health status and risk level (EDR-Z1). The attribute columns (Defender's risk
 * level, exposure, health, AV status and CVEs; Falcon's sensor) come into view when a platform or
 * a vendor is chosen, those the chosen hosts report (EDR-Z3).
 */
import { createColumnHelper } from '@tanstack/react-table';
import type { RiskBand } from '../../../shared/model/edr';
import { BANDS, type ZtaRow, type ZtaSnapshot } from '../../../shared/model/zta';
import { agoText, type TimeFormat } from '../../components/format';
import { BandChip, scoreText, vendorShort, words } from '../../components/zta-labels';
import { sensorState, type ZtaSortKey } from './zta-index';

/** One row of the window: what the table shows, and under a what-if the stored score when it differs. */
export interface HostCell {
  /** The snapshot the row was read from (a what-if's copy is another one). */
  of: ZtaSnapshot;
  row: ZtaRow;
  criticalCves: number | null;
  cveCount: number | null;
  sensor: 0 | 1 | 2 | 3;
  stored?: { score: number; band: RiskBand };
}

export function hostCell(shown: ZtaSnapshot, stored: ZtaSnapshot | undefined, row: ZtaRow): HostCell {
  const i = row.index;
  const r = shown.rows;
  const cell: HostCell = { of: shown, row, criticalCves: r.criticalCves[i] ?? null, cveCount: r.cveCount[i] ?? null, sensor: sensorState(r.sensorRunning[i], r.reducedFunctionality[i]) };
  if (stored && stored.rows.score[i] !== r.score[i]) cell.stored = { score: stored.rows.score[i]!, band: BANDS[stored.rows.band[i]!] ?? 'Trustworthy' };
  return cell;
}

/** Two cells show the same: the same row of the same snapshot (the stored one is compared along with it). */
export const sameHostCell = (a: HostCell, b: HostCell) => a.row.index === b.row.index && a.of === b.of;

export const ATTRIBUTE_COLUMNS = ['riskLevel', 'exposure', 'health', 'avStatus', 'cves', 'sensor'] as const satisfies readonly ZtaSortKey[];
export type AttributeColumn = (typeof ATTRIBUTE_COLUMNS)[number];

declare module '@tanstack/react-table' {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface TableMeta<TData> {
    /** The window's time formatter and clock, read once by the table rather than by every cell. */
    tf?: TimeFormat;
    now?: number;
  }
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  interface ColumnMeta<TData, TValue> {
    /** The column's track in the rows' CSS grid. */
    width: string;
    /** What the header means, on hover. */
    title?: string;
  }
}

const none = (title: string) => (
  <span className="muted" title={title}>
    —
  </span>
);

type Tone = 'ok' | 'warn' | 'danger' | '';
const WORD_TONE: Record<string, Tone> = {
  High: 'danger',
  Medium: 'warn',
  Low: '',
  Informational: '',
  None: 'ok',
  Active: 'ok',
  Inactive: 'danger',
  ImpairedCommunication: 'warn',
  NoSensorData: 'warn',
  NoSensorDataImpairedCommunication: 'warn',
  Disabled: 'danger',
  NotReporting: 'warn',
  NotUpdated: 'warn',
  Updated: 'ok',
};
const zta = (v: number): Tone => (v >= 70 ? 'ok' : v >= 40 ? 'warn' : 'danger');

function Assessment({ value, vendor }: { value: number | string | null; vendor: ZtaRow['vendor'] }) {
  if (value === null) return none(vendor === 'falcon' ? 'Falcon has not assessed this host yet' : 'Not reported by Defender');
  if (typeof value === 'number') return <span className={`zta-value tone-${zta(value)}`}>{value}</span>;
  return <span className={`zta-value tone-${WORD_TONE[value] ?? ''}`}>{words(value)}</span>;
}

function Word({ value }: { value: string | null }) {
  return value === null ? none('Not reported') : <span className={`zta-value tone-${WORD_TONE[value] ?? ''}`}>{words(value)}</span>;
}

function LastSeen({ iso, tf, now }: { iso: string | null; tf: TimeFormat | undefined; now: number | undefined }) {
  if (!iso) return none('Never seen, or no time given');
  return (
    <time dateTime={iso} title={tf ? `Last seen ${tf.dateTime(iso)}` : undefined}>
      {agoText(iso, now ?? Date.parse(iso))}
    </time>
  );
}

function Score({ cell }: { cell: HostCell }) {
  const { score } = cell.row;
  if (!cell.stored) return <span className="zta-score">{scoreText(score)}</span>;
  const up = score > cell.stored.score;
  return (
    <span className="zta-score" title={`Stored ${scoreText(cell.stored.score)} (${cell.stored.band}); what-if ${scoreText(score)}`}>
      {scoreText(score)} <span className={up ? 'zta-delta tone-danger' : 'zta-delta tone-ok'}>{up ? '▲' : '▼'}</span>
    </span>
  );
}

const SENSOR_WORDS = ['', 'not running', 'reduced functionality', 'running'] as const;
const SENSOR_TONE = ['', 'danger', 'warn', 'ok'] as const;

const col = createColumnHelper<HostCell>();

export const HOST_COLUMNS = [
  col.accessor((c) => c.row.hostId, { id: 'hostId', header: 'Host ID', cell: (c) => <span className="mono zta-hostid" title={c.row.original.row.hostId}>{c.row.original.row.hostId}</span>, meta: { width: 'minmax(120px, 1.1fr)' } }),
  col.accessor((c) => c.row.hostname, { id: 'hostname', header: 'Hostname', cell: (c) => <span className="strong" title={c.row.original.row.hostname}>{c.row.original.row.hostname}</span>, meta: { width: 'minmax(130px, 1.2fr)' } }),
  col.accessor((c) => c.row.vendor, { id: 'vendor', header: 'Vendor', cell: (c) => vendorShort[c.row.original.row.vendor], meta: { width: '82px' } }),
  col.accessor((c) => c.row.customerId, { id: 'customer', header: 'Customer ID', cell: (c) => <span className="mono" title={c.row.original.row.customerId}>{c.row.original.row.customerId}</span>, meta: { width: 'minmax(100px, 1fr)' } }),
  col.accessor((c) => c.row.platform, { id: 'platform', header: 'Platform', cell: (c) => c.row.original.row.platform, meta: { width: '84px' } }),
  col.accessor((c) => c.row.osAssessment, {
    id: 'osAssessment',
    header: 'OS assessment',
    cell: (c) => <Assessment value={c.row.original.row.osAssessment} vendor={c.row.original.row.vendor} />,
    meta: { width: '96px', title: 'Falcon: its OS assessment (1–100, higher is better). Defender: its exposure level.' },
  }),
  col.accessor((c) => c.row.sensorAssessment, {
    id: 'sensorAssessment',
    header: 'Sensor assessment',
    cell: (c) => <Assessment value={c.row.original.row.sensorAssessment} vendor={c.row.original.row.vendor} />,
    meta: { width: '96px', title: 'Falcon: its sensor assessment (1–100, higher is better). Defender: its health status.' },
  }),
  col.accessor((c) => c.row.overallAssessment, {
    id: 'overallAssessment',
    header: 'Overall assessment',
    cell: (c) => <Assessment value={c.row.original.row.overallAssessment} vendor={c.row.original.row.vendor} />,
    meta: { width: '96px', title: 'Falcon: its overall ZTA (1–100, higher is better). Defender: its risk level.' },
  }),
  col.accessor((c) => c.row.score, { id: 'score', header: 'Risk score', cell: (c) => <Score cell={c.row.original} />, sortDescFirst: true, meta: { width: '84px', title: 'The console’s risk score, 0–100, higher is riskier' } }),
  col.accessor((c) => c.row.band, { id: 'band', header: 'Band', cell: (c) => <BandChip band={c.row.original.row.band} />, sortDescFirst: true, meta: { width: '118px' } }),
  col.accessor((c) => c.row.lastSeen, { id: 'lastSeen', header: 'Last seen', cell: (c) => <LastSeen iso={c.row.original.row.lastSeen} tf={c.table.options.meta?.tf} now={c.table.options.meta?.now} />, sortDescFirst: true, meta: { width: '104px' } }),
  col.accessor((c) => c.row.riskLevel, { id: 'riskLevel', header: 'Risk level', cell: (c) => <Word value={c.row.original.row.riskLevel} />, sortDescFirst: true, meta: { width: '96px', title: 'Defender’s risk level of the machine' } }),
  col.accessor((c) => c.row.exposure, { id: 'exposure', header: 'Exposure', cell: (c) => <Word value={c.row.original.row.exposure} />, sortDescFirst: true, meta: { width: '90px', title: 'Defender’s exposure level' } }),
  col.accessor((c) => c.row.health, { id: 'health', header: 'Health', cell: (c) => <Word value={c.row.original.row.health} />, meta: { width: '130px', title: 'Defender’s health status' } }),
  col.accessor((c) => c.row.avStatus, { id: 'avStatus', header: 'AV status', cell: (c) => <Word value={c.row.original.row.avStatus} />, meta: { width: '104px', title: 'Defender’s antivirus status' } }),
  col.accessor((c) => c.criticalCves, {
    id: 'cves',
    header: 'CVEs',
    cell: (c) => {
      const { criticalCves, cveCount } = c.row.original;
      if (cveCount === null) return none('No vulnerability list');
      return (
        <span title={`${criticalCves ?? 0} critical of ${cveCount} CVEs`}>
          <span className={criticalCves ? 'zta-value tone-danger' : 'zta-value'}>{criticalCves ?? 0}</span> <span className="muted">/ {cveCount}</span>
        </span>
      );
    },
    sortDescFirst: true,
    meta: { width: '76px', title: 'Critical CVEs / all CVEs (Defender)' },
  }),
  col.accessor((c) => c.sensor, {
    id: 'sensor',
    header: 'Sensor',
    cell: (c) => {
      const s = c.row.original.sensor;
      return s === 0 ? none('No sensor state (not Falcon)') : <span className={`zta-value tone-${SENSOR_TONE[s]}`}>{SENSOR_WORDS[s]}</span>;
    },
    meta: { width: '118px', title: 'Falcon sensor: running (seen within 24 h), in reduced functionality mode, or not running' },
  }),
];

/** Which attribute columns the hosts a mask marks report (one pass, early exit). */
export function attributePresence(s: ZtaSnapshot, mask: Uint8Array): Set<AttributeColumn> {
  const r = s.rows;
  const out = new Set<AttributeColumn>();
  for (let i = 0; i < r.hostId.length && out.size < ATTRIBUTE_COLUMNS.length; i++) {
    if (mask[i] !== 1) continue;
    if (r.riskLevel[i] != null) out.add('riskLevel');
    if (r.exposure[i] != null) out.add('exposure');
    if (r.health[i] != null) out.add('health');
    if (r.avStatus[i] != null) out.add('avStatus');
    if (r.cveCount[i] != null) out.add('cves');
    if (r.sensorRunning[i] != null) out.add('sensor');
  }
  return out;
}
