/** The report's tables: connectors in scope, band counts, riskiest hosts with their reasons, changes since the last cycle. */
import type { Contribution } from '../../../../shared/model/edr';
import { BANDS, type BandCounts, type HostMove, type ZtaChanges, type ZtaConnector, type ZtaRow } from '../../../../shared/model/zta';
import { netText } from '../../../../shared/text';
import { NetText } from '../../../components/NetText';
import { DateTime } from '../../../components/Time';
import { BAND_COLORS, percent, reasonsOf, REPORT_FIELD_MAX, type CustomerBands } from './report-model';
import { hostKey } from './useReportData';
import { formatCount } from '../../../components/format';
import { scoreText } from '../../../components/zta-labels';

const VENDOR = { defender: 'Microsoft Defender', falcon: 'CrowdStrike Falcon' } as const;

/** A field from the network as the report prints it: isolated, bidi controls shown, clipped. */
const Net = ({ text, className }: { text: string; className?: string }) => <NetText text={text} max={REPORT_FIELD_MAX} {...(className ? { className } : {})} />;

/** How a connector's data stands, in the words of the dashboard (EDR-Z10). */
function dataState(c: ZtaConnector): string {
  if (c.cycleId === null) return c.health === 'running' ? 'first cycle running' : 'no completed cycle';
  if (c.health === 'offline') return 'offline: last good data shown';
  if (c.health === 'failing') return `last cycle failed${c.lastError ? `: ${netText(c.lastError, REPORT_FIELD_MAX)}` : ''}`;
  return c.kind === 'rescore' ? 'online (rescored)' : 'online';
}

export function BandDot({ band }: { band: keyof BandCounts }) {
  return <span className="report-band-dot" style={{ background: BAND_COLORS[band] }} aria-hidden="true" />;
}

export function ConnectorsTable({ connectors }: { connectors: readonly ZtaConnector[] }) {
  return (
    <table className="table report-table" data-testid="report-connectors">
      <thead>
        <tr>
          <th scope="col">Connector</th>
          <th scope="col">Vendor</th>
          <th scope="col">Tenant</th>
          <th scope="col" className="num">
            Hosts
          </th>
          <th scope="col">As of</th>
          <th scope="col">Data</th>
        </tr>
      </thead>
      <tbody>
        {connectors.map((c) => (
          <tr key={c.connectorId}>
            <td>
              <Net text={c.name} />
            </td>
            <td>{VENDOR[c.vendor]}</td>
            <td className="mono">
              <Net text={c.tenantId} />
            </td>
            <td className="num">{formatCount(c.hosts)}</td>
            <td className="nowrap">{c.asOf ? <DateTime iso={c.asOf} /> : '—'}</td>
            <td>{dataState(c)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function BandTable({ bands, total }: { bands: BandCounts; total: number }) {
  return (
    <table className="table report-table report-bands" data-testid="report-band-counts">
      <thead>
        <tr>
          <th scope="col">Band</th>
          <th scope="col" className="num">
            Hosts
          </th>
          <th scope="col" className="num">
            Share
          </th>
        </tr>
      </thead>
      <tbody>
        {BANDS.map((b) => (
          <tr key={b} data-band={b}>
            <td>
              <BandDot band={b} /> {b}
            </td>
            <td className="num">{formatCount(bands[b])}</td>
            <td className="num">{percent(bands[b], total)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** A customer: its name with the ID beneath, or the ID alone when no name is known. */
function Customer({ id, name }: { id: string; name: string | undefined }) {
  if (!name) return <Net className="mono" text={id} />;
  return (
    <>
      <div>
        <Net text={name} />
      </div>
      <div className="mono small muted">
        <Net text={id} />
      </div>
    </>
  );
}

export function CustomersTable({ customers, more }: { customers: readonly CustomerBands[]; more: number }) {
  return (
    <>
      <table className="table report-table" data-testid="report-customers">
        <thead>
          <tr>
            <th scope="col">Customer</th>
            {BANDS.map((b) => (
              <th key={b} scope="col" className="num">
                <BandDot band={b} /> {b}
              </th>
            ))}
            <th scope="col" className="num">
              Hosts
            </th>
          </tr>
        </thead>
        <tbody>
          {customers.map((c) => (
            <tr key={c.customerId}>
              <td>
                <Customer id={c.customerId} name={c.name} />
              </td>
              {BANDS.map((b) => (
                <td key={b} className="num">
                  {c.bands[b] ? formatCount(c.bands[b]) : '·'}
                </td>
              ))}
              <td className="num strong">{formatCount(c.total)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {more ? <p className="small muted">{formatCount(more)} more customer(s) with fewer hosts are not listed.</p> : null}
    </>
  );
}

/** "Risk score High (+24.0)": what adds most to the score, in the scoring's own words. */
function Reasons({ contributions }: { contributions: readonly Contribution[] | undefined }) {
  if (!contributions) return <span className="muted">Details could not be read.</span>;
  const top = reasonsOf(contributions);
  if (!top.length) return <span className="muted">No indicator adds risk.</span>;
  return (
    <ul className="report-reasons">
      {top.map((c) => (
        <li key={c.indicator}>
          <Net text={c.detail} /> <span className="muted">(+{c.scoreShare.toFixed(1)})</span>
        </li>
      ))}
    </ul>
  );
}

export function RiskiestTable({ rows, reasons, names }: { rows: readonly ZtaRow[]; reasons: ReadonlyMap<string, readonly Contribution[]>; names: ReadonlyMap<string, string> }) {
  return (
    <table className="table report-table report-riskiest" data-testid="report-riskiest">
      <thead>
        <tr>
          <th scope="col" className="num">
            #
          </th>
          <th scope="col" className="report-col-host">
            Host
          </th>
          <th scope="col" className="num">
            Score
          </th>
          <th scope="col">Band</th>
          <th scope="col" className="report-col-why">
            Why (largest first)
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={hostKey(r.connectorId, r.hostId)} data-host-id={r.hostId}>
            <td className="num">{i + 1}</td>
            <td>
              <div className="strong">
                <Net text={r.hostname} />
              </div>
              <div className="small muted">
                <Net text={r.platform} /> · customer {names.get(r.customerId) ? <Net text={names.get(r.customerId)!} /> : <Net className="mono" text={r.customerId} />}
              </div>
              <div className="mono small muted">
                <Net text={r.hostId} />
              </div>
            </td>
            <td className="num strong">{scoreText(r.score)}</td>
            <td className="nowrap">
              <BandDot band={r.band} /> {r.band}
            </td>
            <td>
              <Reasons contributions={reasons.get(hostKey(r.connectorId, r.hostId))} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Move({ m, names }: { m: HostMove; names: ReadonlyMap<string, string> }) {
  const delta = m.to.score - (m.from?.score ?? 0);
  return (
    <tr data-host-id={m.hostId}>
      <td>
        <div className="strong">
          <Net text={m.hostname} />
        </div>
        <div className="small muted">
          {names.get(m.customerId) ? <Net text={names.get(m.customerId)!} /> : <Net className="mono" text={m.customerId} />}
        </div>
      </td>
      <td className="nowrap">{m.from ? `${m.from.score.toFixed(1)} ${m.from.band}` : 'new host'}</td>
      <td className="nowrap">
        {m.to.score.toFixed(1)} <BandDot band={m.to.band} /> {m.to.band}
      </td>
      <td className="num">{m.from ? `${delta > 0 ? '+' : ''}${delta.toFixed(1)}` : ''}</td>
    </tr>
  );
}

function MovesTable({ title, moves, testId, none, names }: { title: string; moves: readonly HostMove[]; testId: string; none: string; names: ReadonlyMap<string, string> }) {
  return (
    <div className="report-moves" data-testid={testId}>
      <h3>
        {title} <span className="count">{moves.length}</span>
      </h3>
      {moves.length ? (
        <table className="table report-table">
          <thead>
            <tr>
              <th scope="col">Host</th>
              <th scope="col">Was</th>
              <th scope="col">Now</th>
              <th scope="col" className="num">
                Change
              </th>
            </tr>
          </thead>
          <tbody>
            {moves.map((m) => (
              <Move key={`${m.connectorId}:${m.hostId}`} m={m} names={names} />
            ))}
          </tbody>
        </table>
      ) : (
        <p className="small muted">{none}</p>
      )}
    </div>
  );
}

export function ChangesSection({ changes, names }: { changes: ZtaChanges; names: ReadonlyMap<string, string> }) {
  return (
    <>
      <p data-testid="report-moved">
        {changes.moved ? `${formatCount(changes.moved)} host(s) of these connectors changed score in the newest cycle.` : 'No host of these connectors changed score in the newest cycle.'}
      </p>
      <MovesTable title="Entered High Risk" moves={changes.enteredHighRisk} testId="report-entered" names={names} none="No host entered High Risk." />
      <MovesTable title="Left High Risk" moves={changes.leftHighRisk} testId="report-left" names={names} none="No host left High Risk." />
      <MovesTable title="Biggest movers" moves={changes.biggestMovers} testId="report-movers" names={names} none="No score moved." />
    </>
  );
}
