/**
 * The columns of the assessment-by-host table. The three assessment columns hold Falcon's OS,
 * sensor and overall ZTA (1–100, higher is better, as the vendor gives them) and for Defender its
 * exposure level, health status and risk level (EDR-Z1). The attribute columns (Defender's risk
 * level, exposure, health, AV status and CVEs; Falcon's sensor) come into view when a platform or
 * a vendor is chosen, those the chosen hosts report (EDR-Z3).
 */
import type { TableColumn } from '../../components/Table';
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

/** The window's time formatter and clock, read once by the table rather than by every cell. */
export interface HostMeta {
  tf: TimeFormat;
  now: number;
}

/** A column of the table: its id is the sort key, and its width its track in the rows' CSS grid. */
export interface HostColumn extends TableColumn<HostCell, HostMeta> {
  id: ZtaSortKey;
  width: string;
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

function LastSeen({ iso, tf, now }: { iso: string | null; tf: TimeFormat; now: number }) {
  if (!iso) return none('Never seen, or no time given');
  return (
    <time dateTime={iso} title={`Last seen ${tf.dateTime(iso)}`}>
      {agoText(iso, now)}
    </time>
  );
}

function Score({ cell }: { cell: HostCell }) {
  const { score } = cell.row;
  if (score === null) {
    return (
      <span className="zta-score muted" title="Not assessed: its vendor has not assessed this host, so it has no score">
        —
      </span>
    );
  }
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

const col = (id: ZtaSortKey, header: string, width: string, cell: HostColumn['cell'], more: { title?: string; descFirst?: boolean } = {}): HostColumn => ({ id, header, width, cell, className: `col-${id}`, ...more });

export const HOST_COLUMNS: readonly HostColumn[] = [
  col('hostId', 'Host ID', 'minmax(120px, 1.1fr)', (c) => <span className="mono zta-hostid" title={c.row.hostId}>{c.row.hostId}</span>),
  col('hostname', 'Hostname', 'minmax(130px, 1.2fr)', (c) => <span className="strong" title={c.row.hostname}>{c.row.hostname}</span>),
  col('vendor', 'Vendor', '82px', (c) => vendorShort[c.row.vendor]),
  col('customer', 'Customer ID', 'minmax(100px, 1fr)', (c) => <span className="mono" title={c.row.customerId}>{c.row.customerId}</span>),
  col('platform', 'Platform', '84px', (c) => c.row.platform),
  col('osAssessment', 'OS assessment', '96px', (c) => <Assessment value={c.row.osAssessment} vendor={c.row.vendor} />, { title: 'Falcon: its OS assessment (1–100, higher is better). Defender: its exposure level.' }),
  col('sensorAssessment', 'Sensor assessment', '96px', (c) => <Assessment value={c.row.sensorAssessment} vendor={c.row.vendor} />, { title: 'Falcon: its sensor assessment (1–100, higher is better). Defender: its health status.' }),
  col('overallAssessment', 'Overall assessment', '96px', (c) => <Assessment value={c.row.overallAssessment} vendor={c.row.vendor} />, { title: 'Falcon: its overall ZTA (1–100, higher is better). Defender: its risk level.' }),
  col('score', 'Risk score', '84px', (c) => <Score cell={c} />, { descFirst: true, title: 'The console’s risk score, 0–100, higher is riskier' }),
  col('band', 'Band', '118px', (c) => <BandChip band={c.row.band} />, { descFirst: true }),
  col('lastSeen', 'Last seen', '104px', (c, m) => <LastSeen iso={c.row.lastSeen} tf={m.tf} now={m.now} />, { descFirst: true }),
  col('riskLevel', 'Risk level', '96px', (c) => <Word value={c.row.riskLevel} />, { descFirst: true, title: 'Defender’s risk level of the machine' }),
  col('exposure', 'Exposure', '90px', (c) => <Word value={c.row.exposure} />, { descFirst: true, title: 'Defender’s exposure level' }),
  col('health', 'Health', '130px', (c) => <Word value={c.row.health} />, { title: 'Defender’s health status' }),
  col('avStatus', 'AV status', '104px', (c) => <Word value={c.row.avStatus} />, { title: 'Defender’s antivirus status' }),
  col(
    'cves',
    'CVEs',
    '76px',
    ({ criticalCves, cveCount }) => {
      if (cveCount === null) return none('No vulnerability list');
      return (
        <span title={`${criticalCves ?? 0} critical of ${cveCount} CVEs`}>
          <span className={criticalCves ? 'zta-value tone-danger' : 'zta-value'}>{criticalCves ?? 0}</span> <span className="muted">/ {cveCount}</span>
        </span>
      );
    },
    { descFirst: true, title: 'Critical CVEs / all CVEs (Defender)' },
  ),
  col('sensor', 'Sensor', '118px', ({ sensor }) => (sensor === 0 ? none('No sensor state (not Falcon)') : <span className={`zta-value tone-${SENSOR_TONE[sensor]}`}>{SENSOR_WORDS[sensor]}</span>), {
    title: 'Falcon sensor: running (seen within 24 h), in reduced functionality mode, or not running',
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
