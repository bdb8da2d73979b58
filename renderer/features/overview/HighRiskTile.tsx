/**
 * Hosts that entered High Risk in each connector's newest cycle against its previous one: how
 * many, the riskiest by name (each opens on the ZTA dashboard), since when. With a single cycle
 * there is nothing to compare: the tile says so rather than show 0.
 */
import { Link } from '@tanstack/react-router';
import { ArrowRight, TriangleAlert } from 'lucide-react';
import type { OverviewRisk } from '../../../shared/model/overview';
import { formatCount } from '../../components/format';
import { DateTime } from '../../components/Time';
import { BandChip, scoreText } from '../../components/zta-labels';
import { AsOf } from '../../components/AsOf';
import { Tile, TileEmpty } from './Tile';

export function HighRiskTile({ risk }: { risk: OverviewRisk }) {
  const link = (
    <Link to="/zta" search={{ band: 'High Risk' }} className="ov-tile-link">
      High Risk hosts
    </Link>
  );
  const title = 'Entered High Risk';
  if (risk.state !== 'known') {
    return (
      <Tile id="entered" title={title} icon={TriangleAlert} link={link} footer={<span className="muted">{risk.state === 'no-connectors' ? 'No connector' : 'No completed cycle yet'}</span>}>
        <TileEmpty>Hosts that move into High Risk between two cycles show here.</TileEmpty>
      </Tile>
    );
  }
  const e = risk.entered;
  if (e.state === 'first-cycle') {
    return (
      <Tile id="entered" title={title} icon={TriangleAlert} link={link} footer={<AsOf className="ov-asof" testId="tile-asof" iso={risk.asOf} />}>
        <TileEmpty>Only one cycle so far: hosts that enter High Risk show after the next one.</TileEmpty>
      </Tile>
    );
  }
  return (
    <Tile
      id="entered"
      title={title}
      icon={TriangleAlert}
      link={link}
      footer={
        <AsOf className="ov-asof" testId="tile-asof" iso={risk.asOf}>
          <span className="muted">
            {' '}
            · compared with the cycles before, from <DateTime iso={e.since} />
            {e.notCompared > 0 ? ` (${e.notCompared === 1 ? '1 connector has' : `${e.notCompared} connectors have`} a single cycle)` : ''}
          </span>
        </AsOf>
      }
    >
      <p className="ov-bignums">
        <span className={`ov-bignum ${e.count > 0 ? 'ov-bignum-danger' : ''}`} data-testid="entered-count">
          <strong>{formatCount(e.count)}</strong> {e.count === 1 ? 'host' : 'hosts'} since the last cycle
        </span>
      </p>
      {e.hosts.length > 0 ? (
        <ul className="ov-list" aria-label="Hosts that entered High Risk">
          {e.hosts.map((m) => (
            <li key={`${m.connectorId}:${m.hostId}`}>
              <Link to="/zta" search={{ band: 'High Risk', host: m.hostId }} title={`Open ${m.hostname} (${m.hostId})`} data-testid="entered-host">
                {m.hostname}
              </Link>
              <span className="ov-move">
                {m.from ? <span className="muted">{scoreText(m.from.score)}</span> : <span className="muted">new</span>}
                <ArrowRight size={11} aria-hidden="true" />
                <strong>{scoreText(m.to.score)}</strong>
                <BandChip band={m.to.band} />
              </span>
            </li>
          ))}
          {e.count > e.hosts.length ? <li className="muted">and {formatCount(e.count - e.hosts.length)} more</li> : null}
        </ul>
      ) : (
        <p className="muted">No host entered High Risk.</p>
      )}
    </Tile>
  );
}
