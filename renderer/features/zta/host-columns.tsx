/**
 * The columns of the assessment-by-host table. The three assessment columns hold Falcon's OS,
 * sensor and overall ZTA (1–100, higher is better, as the vendor gives them) and for Defender its
 * exposure level, health status and risk level (EDR-Z1). The attribute columns (Defender's risk
 * level, exposure, health, AV status and CVEs; Falcon's sensor) come into view when a platform or
 * a vendor is chosen, those the chosen hosts report (EDR-Z3); over Defender's hosts alone the
 * assessment columns are headed by Defender's words and its risk level, exposure and health are not
 * repeated. Which columns fit the table's width: `fitColumns` (C-54).
 */
import { Copy } from 'lucide-react';
import type { TableColumn } from '../../components/Table';
import type { RiskBand, Vendor } from '../../../shared/model/edr';
import { copyText } from '../../components/CopyButton';
import { nameOrId, shortId } from '../../components/ids';
import { BANDS, type ZtaRow, type ZtaSnapshot } from '../../../shared/model/zta';
import { agoText, type TimeFormat } from '../../components/format';
import { BandChip, scoreText, vendorShort, words } from '../../components/zta-labels';
import { sensorState, type ZtaSortKey } from './zta-index';

/** One row of the window: what the table shows, and under a what-if the stored score when it differs. */
export interface HostCell {
  /** What the row was read from: a snapshot (a what-if's copy is another one) or a window's page. */
  of: object;
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

/** The window's time formatter and clock and the customers' names, read once by the table rather than by every cell. */
export interface HostMeta {
  tf: TimeFormat;
  now: number;
  /** Customer ID → its name, where one is known (customer-names.ts). */
  customers: ReadonlyMap<string, string | undefined>;
}

/** A column of the table: its id is the sort key, and its width its track in the rows' CSS grid. */
export interface HostColumn extends TableColumn<HostCell, HostMeta> {
  id: ZtaSortKey;
  width: string;
  min: number;
  priority?: number;
  /** Its header and narrowest width over rows of one vendor only. */
  byVendor?: Partial<Record<Vendor, VendorHeader>>;
}

/** Defender's assessment columns hold its words: headed by them, and narrower than "… assessment" needs. */
export interface VendorHeader {
  header: string;
  min: number;
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
  return (
    <span className={`zta-value tone-${WORD_TONE[value] ?? ''}`} title={words(value)}>
      {words(value)}
    </span>
  );
}

function Word({ value }: { value: string | null }) {
  return value === null ? (
    none('Not reported')
  ) : (
    <span className={`zta-value tone-${WORD_TONE[value] ?? ''}`} title={words(value)}>
      {words(value)}
    </span>
  );
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

interface ColumnSize {
  /** The narrowest the column gets (px): what the table's width is fitted with. */
  min: number;
  /** A share of the room left over (fr); without it the column is `min` wide. */
  grow?: number;
  /**
   * How long it stays when the table is too narrow for every column (fitColumns): the lowest
   * gives way first; without it the column always stays (hostname, score, band).
   */
  priority?: number;
  title?: string;
  descFirst?: boolean;
  /** Its header and width over rows of one vendor only (Defender's assessments are its exposure, health and risk level). */
  byVendor?: Partial<Record<Vendor, VendorHeader>>;
}

const col = (id: ZtaSortKey, header: string, cell: HostColumn['cell'], size: ColumnSize): HostColumn => {
  const { min, grow, ...more } = size;
  return { id, header, cell, className: `col-${id}`, min, width: grow ? `minmax(${min}px, ${grow}fr)` : `${min}px`, ...more };
};

function HostId({ id }: { id: string }) {
  return (
    <>
      <span className="mono zta-hostid" title={id}>
        {shortId(id)}
      </span>
      <button
        type="button"
        className="zta-copy"
        tabIndex={-1}
        aria-label={`Copy the host ID ${id}`}
        title="Copy the host ID"
        onClick={(e) => {
          e.stopPropagation();
          void copyText(id, 'Host ID');
        }}
      >
        <Copy size={12} aria-hidden="true" />
      </button>
    </>
  );
}

function Customer({ id, name }: { id: string; name: string | undefined }) {
  const { text, title } = nameOrId(id, name);
  return (
    <span className={name ? undefined : 'mono zta-hostid'} title={title}>
      {text}
    </span>
  );
}

/**
 * Names before IDs (issue 22.7): the hostname takes the room left over, the customer is named by
 * its connector where known, and the long IDs come after them, shortened (the whole ID on hover,
 * in the host's details, and copied by the row's copy button).
 */
export const HOST_COLUMNS: readonly HostColumn[] = [
  col('hostname', 'Hostname', (c) => <span className="strong" title={c.row.hostname}>{c.row.hostname}</span>, { min: 230, grow: 3 }),
  col('customer', 'Customer', (c, m) => <Customer id={c.row.customerId} name={m.customers.get(c.row.customerId)} />, { min: 176, grow: 1, priority: 90, title: 'The customer: its connector’s name where known, its ID on hover' }),
  col('hostId', 'Host ID', (c) => <HostId id={c.row.hostId} />, { min: 88, priority: 20 }),
  col('vendor', 'Vendor', (c) => vendorShort[c.row.vendor], { min: 80, priority: 30 }),
  col('platform', 'Platform', (c) => c.row.platform, { min: 84, priority: 40 }),
  col('osAssessment', 'OS assessment', (c) => <Assessment value={c.row.osAssessment} vendor={c.row.vendor} />, {
    min: 100,
    priority: 52,
    title: 'Falcon: its OS assessment (1–100, higher is better). Defender: its exposure level.',
    byVendor: { defender: { header: 'Exposure', min: 92 } },
  }),
  col('sensorAssessment', 'Sensor assessment', (c) => <Assessment value={c.row.sensorAssessment} vendor={c.row.vendor} />, {
    min: 100,
    priority: 50,
    title: 'Falcon: its sensor assessment (1–100, higher is better). Defender: its health status.',
    byVendor: { defender: { header: 'Health', min: 92 } },
  }),
  col('overallAssessment', 'Overall assessment', (c) => <Assessment value={c.row.overallAssessment} vendor={c.row.vendor} />, {
    min: 100,
    priority: 80,
    title: 'Falcon: its overall ZTA (1–100, higher is better). Defender: its risk level.',
    byVendor: { defender: { header: 'Risk level', min: 92 } },
  }),
  col('score', 'Risk score', (c) => <Score cell={c} />, { min: 72, descFirst: true, title: 'The console’s risk score, 0–100, higher is riskier' }),
  col('band', 'Band', (c) => <BandChip band={c.row.band} />, { min: 126, descFirst: true }),
  col('lastSeen', 'Last seen', (c, m) => <LastSeen iso={c.row.lastSeen} tf={m.tf} now={m.now} />, { min: 96, priority: 70, descFirst: true }),
  col('riskLevel', 'Risk level', (c) => <Word value={c.row.riskLevel} />, { min: 96, priority: 60, descFirst: true, title: 'Defender’s risk level of the machine' }),
  col('exposure', 'Exposure', (c) => <Word value={c.row.exposure} />, { min: 90, priority: 60, descFirst: true, title: 'Defender’s exposure level' }),
  col('health', 'Health', (c) => <Word value={c.row.health} />, { min: 130, priority: 60, title: 'Defender’s health status' }),
  col('avStatus', 'AV status', (c) => <Word value={c.row.avStatus} />, { min: 116, priority: 62, title: 'Defender’s antivirus status' }),
  col(
    'cves',
    'CVEs',
    ({ criticalCves, cveCount }) => {
      if (cveCount === null) return none('No vulnerability list');
      return (
        <span title={`${criticalCves ?? 0} critical of ${cveCount} CVEs`}>
          <span className={criticalCves ? 'zta-value tone-danger' : 'zta-value'}>{criticalCves ?? 0}</span> <span className="muted">/ {cveCount}</span>
        </span>
      );
    },
    { min: 76, priority: 64, descFirst: true, title: 'Critical CVEs / all CVEs (Defender)' },
  ),
  col('sensor', 'Sensor', ({ sensor }) => (sensor === 0 ? none('No sensor state (not Falcon)') : <span className={`zta-value tone-${SENSOR_TONE[sensor]}`}>{SENSOR_WORDS[sensor]}</span>), {
    min: 160,
    priority: 64,
    title: 'Falcon sensor: running (seen within 24 h), in reduced functionality mode, or not running',
  }),
];

/**
 * The columns that fit `width` px: every column while their narrowest widths fit, else the
 * lowest priority ones leave first until the rest fit (hostname, score and band always stay; if
 * even they do not fit, the table scrolls sideways in its frame). A width of 0 (not measured yet,
 * or no layout) keeps every column. Also the narrowest width of those kept.
 */
export function fitColumns<C extends Pick<HostColumn, 'min' | 'priority'>>(columns: readonly C[], width: number): { columns: C[]; min: number } {
  const sum = (cs: readonly C[]) => cs.reduce((t, c) => t + c.min, 0);
  let kept = [...columns];
  if (width > 0) {
    const leaving = kept.filter((c) => c.priority !== undefined).sort((a, b) => a.priority! - b.priority!);
    for (const c of leaving) {
      if (sum(kept) <= width) break;
      kept = kept.filter((k) => k !== c);
    }
  }
  return { columns: kept, min: sum(kept) };
}

export interface SharedValues {
  customer: boolean;
  platform: boolean;
  /** The one vendor of the hosts, undefined when they are of both (or there are none). */
  vendor: Vendor | undefined;
}

/**
 * Whether the hosts a mask marks share one customer, one platform, one vendor: such a column would
 * say one thing in every row (EDR-Z3). One pass, stopping once all three differ.
 */
export function sharedValues(s: ZtaSnapshot, mask: Uint8Array): SharedValues {
  const r = s.rows;
  const first = { customer: -1, platform: -1, vendor: undefined as Vendor | undefined };
  const out = { customer: true, platform: true, vendor: true };
  for (let i = 0; i < r.hostId.length && (out.customer || out.platform || out.vendor); i++) {
    if (mask[i] !== 1) continue;
    const vendor = s.connectors[r.connector[i]!]!.vendor;
    if (first.customer < 0) {
      first.customer = r.customer[i]!;
      first.platform = r.platform[i]!;
      first.vendor = vendor;
      continue;
    }
    if (r.customer[i] !== first.customer) out.customer = false;
    if (r.platform[i] !== first.platform) out.platform = false;
    if (vendor !== first.vendor) out.vendor = false;
  }
  return { customer: out.customer && first.customer >= 0, platform: out.platform && first.platform >= 0, vendor: out.vendor ? first.vendor : undefined };
}

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
