/**
 * The risk bands of every host of every connector (each at its newest completed cycle, from main's
 * cycle aggregates) as one stacked bar, each band opening the ZTA dashboard filtered to it, and the
 * bands over the last cycles (recharts).
 */
import { Link } from '@tanstack/react-router';
import { ShieldCheck } from 'lucide-react';
import { memo } from 'react';
import { NOT_ASSESSED } from '../../../shared/model/edr';
import type { OverviewRisk } from '../../../shared/model/overview';
import { BANDS } from '../../../shared/model/zta';
import { formatCount } from '../../components/format';
import { DateTime } from '../../components/Time';
import { useTimeFormat } from '../../components/useTimeFormat';
import { bandClass } from '../../components/zta-labels';
import { TrendAreas } from '../../components/TrendAreas';
import { trendData } from '../../components/trend';
import { SetupActions } from './SetupActions';
import { AsOf } from '../../components/AsOf';
import { Tile, TileEmpty } from './Tile';

type KnownRisk = Extract<OverviewRisk, { state: 'known' }>;

export function RiskTile({ risk }: { risk: OverviewRisk }) {
  const link = (
    <Link to="/zta" className="ov-tile-link">
      ZTA
    </Link>
  );
  if (risk.state === 'no-connectors') {
    return (
      <Tile id="risk" title="Risk bands" icon={ShieldCheck} link={link} footer={<span className="muted">No connector</span>} className="ov-tile-wide">
        <TileEmpty actions={<SetupActions what="connector" />}>Scores come from your Falcon and Defender tenants: add a connector, or open the demo workspace (a simulated tenant of each).</TileEmpty>
      </Tile>
    );
  }
  if (risk.state === 'never') {
    return (
      <Tile id="risk" title="Risk bands" icon={ShieldCheck} link={link} footer={<span className="muted">No completed cycle yet</span>} className="ov-tile-wide">
        <TileEmpty
          actions={
            <Link to="/connectors" className="button button-small">
              Connectors
            </Link>
          }
        >
          {risk.connectors === 1 ? 'The connector has not completed a poll cycle yet' : `None of the ${risk.connectors} connectors has completed a poll cycle yet`}; the bands show as soon as one
          completes.
        </TileEmpty>
      </Tile>
    );
  }
  const partial = risk.scored < risk.connectors ? ` · ${risk.scored} of ${risk.connectors} connectors scored` : '';
  return (
    <Tile
      id="risk"
      title="Risk bands"
      icon={ShieldCheck}
      link={link}
      className="ov-tile-wide"
      footer={
        <AsOf className="ov-asof" testId="tile-asof" iso={risk.asOf}>
          {risk.oldestAsOf !== risk.asOf ? (
            <span className="muted">
              {' '}
              (the oldest tenant as of <DateTime iso={risk.oldestAsOf} />)
            </span>
          ) : null}
          {partial}
        </AsOf>
      }
    >
      <div className="ov-risk">
        <div className="ov-risk-bands">
          <p className="ov-bignums">
            <Link to="/zta" className="ov-bignum" data-testid="risk-hosts" title="Open every host on the ZTA dashboard">
              <strong>{formatCount(risk.hosts)}</strong> hosts
            </Link>
            <Link to="/zta" search={{ band: 'High Risk' }} className="ov-bignum ov-bignum-danger" data-testid="risk-high" title="Open the hosts in High Risk">
              <strong>{formatCount(risk.bands['High Risk'])}</strong> in High Risk
            </Link>
            {risk.bands[NOT_ASSESSED] > 0 ? (
              <Link
                to="/zta"
                search={{ band: NOT_ASSESSED }}
                className="ov-bignum ov-bignum-muted"
                data-testid="risk-not-assessed"
                title="Open the hosts their vendor has not assessed yet: they have no score, and are counted apart from the bands"
              >
                <strong>{formatCount(risk.bands[NOT_ASSESSED])}</strong> not assessed
              </Link>
            ) : null}
          </p>
          <BandBar risk={risk} />
          <ul className="ov-band-list" aria-label="Hosts per band">
            {BANDS.map((b) => (
              <li key={b} className={b === NOT_ASSESSED ? 'ov-band-apart' : undefined}>
                <Link to="/zta" search={{ band: b }} className={`ov-band ${bandClass(b)}`} data-testid={`risk-band-${b}`} title={`Open the hosts in ${b}`}>
                  <span className="zta-swatch" aria-hidden="true" />
                  {b} <strong>{formatCount(risk.bands[b])}</strong>
                </Link>
              </li>
            ))}
          </ul>
        </div>
        <Trend trend={risk.trend} />
      </div>
    </Tile>
  );
}

/** One bar, a segment per band in proportion (a band with no host takes no room). */
function BandBar({ risk }: { risk: KnownRisk }) {
  return (
    <div className="ov-bandbar" role="img" aria-label={BANDS.map((b) => `${b}: ${formatCount(risk.bands[b])}`).join(', ')}>
      {BANDS.map((b) => (risk.bands[b] > 0 ? <span key={b} className={bandClass(b)} style={{ flexGrow: risk.bands[b] }} /> : null))}
    </div>
  );
}

const Trend = memo(function Trend({ trend }: { trend: KnownRisk['trend'] }) {
  const tf = useTimeFormat();
  const data = trendData(trend);
  return (
    <div className="ov-trend" data-testid="risk-trend">
      <h4>Bands over time{data.length > 1 ? <span className="muted"> · since {tf.dateTime(data[0]!.at).slice(5, 16)}</span> : null}</h4>
      {data.length < 2 ? <p className="muted ov-trend-note">One point so far: the trend draws from the next cycle on.</p> : <TrendAreas data={data} height={130} />}
    </div>
  );
});
