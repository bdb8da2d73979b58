/**
 * What changed since the previous cycle (EDR-Z4): hosts that entered or left High Risk and the
 * biggest movers, from zta.overview (each connector's newest cycle against its previous one), and
 * the riskiest hosts the filters show. A host opens its details.
 */
import { ArrowRight } from 'lucide-react';
import { memo } from 'react';
import type { HostMove, ZtaOverview, ZtaRow } from '../../../shared/model/zta';
import { formatCount } from '../../components/format';
import { BandChip, scoreText } from '../../components/zta-labels';

const SHOWN = 5;

function Move({ m, onOpen }: { m: HostMove; onOpen(hostId: string): void }) {
  const delta = m.from ? m.to.score - m.from.score : null;
  return (
    <li>
      <button type="button" className="link-button" onClick={() => onOpen(m.hostId)} title={`Open ${m.hostname} (${m.hostId})`}>
        {m.hostname}
      </button>
      <span className="zta-move">
        {m.from ? <span className="muted">{scoreText(m.from.score)}</span> : <span className="muted">new</span>}
        <ArrowRight size={11} aria-hidden="true" />
        <strong>{scoreText(m.to.score)}</strong>
        {delta !== null ? <span className={delta > 0 ? 'tone-danger' : 'tone-ok'}>{`${delta > 0 ? '+' : ''}${scoreText(delta)}`}</span> : null}
      </span>
    </li>
  );
}

function MoveList({ title, moves, onOpen, testId }: { title: string; moves: HostMove[]; onOpen(hostId: string): void; testId: string }) {
  return (
    <div className="zta-changes-group" data-testid={testId}>
      <h4>
        {title} <span className="count">{formatCount(moves.length)}</span>
      </h4>
      {moves.length === 0 ? (
        <p className="muted">None.</p>
      ) : (
        <ul className="zta-list">
          {moves.slice(0, SHOWN).map((m) => (
            <Move key={`${m.connectorId}:${m.hostId}`} m={m} onOpen={onOpen} />
          ))}
          {moves.length > SHOWN ? <li className="muted">and {formatCount(moves.length - SHOWN)} more</li> : null}
        </ul>
      )}
    </div>
  );
}

export const ChangesCard = memo(function ChangesCard({ overview, onOpen }: { overview: ZtaOverview | undefined; onOpen(hostId: string): void }) {
  const ch = overview?.changes;
  const cycles = overview?.trend.length ?? 0;
  return (
    <section className="zta-card zta-changes" aria-labelledby="zta-changes-title" data-testid="zta-changes">
      <header className="zta-card-head">
        <h3 id="zta-changes-title">Since the previous cycle</h3>
        {ch ? <span className="muted">{ch.moved === 1 ? '1 host moved' : `${formatCount(ch.moved)} hosts moved`}</span> : null}
      </header>
      {!ch ? null : cycles < 2 && ch.moved === 0 && ch.enteredHighRisk.length === 0 ? (
        <p className="muted zta-card-note">Only one cycle so far: the changes show after the next one.</p>
      ) : (
        <div className="zta-card-body">
          <MoveList title="Entered High Risk" moves={ch.enteredHighRisk} onOpen={onOpen} testId="zta-entered-high" />
          <MoveList title="Left High Risk" moves={ch.leftHighRisk} onOpen={onOpen} testId="zta-left-high" />
          <MoveList title="Biggest movers" moves={ch.biggestMovers} onOpen={onOpen} testId="zta-movers" />
        </div>
      )}
    </section>
  );
});

/** `unscored`: hosts match the filters, but none has a score (all not assessed). */
/** `stale`: the hosts shown are an earlier filter's, the card's own read on its way (dimmed, busy). */
export const RiskiestCard = memo(function RiskiestCard({ hosts, unscored, onOpen, whatIf, stale = false }: { hosts: ZtaRow[]; unscored: boolean; onOpen(hostId: string): void; whatIf: boolean; stale?: boolean }) {
  return (
    <section className={`zta-card zta-riskiest${stale ? ' stale' : ''}`} aria-labelledby="zta-riskiest-title" aria-busy={stale} data-testid="zta-riskiest">
      <header className="zta-card-head">
        <h3 id="zta-riskiest-title">Riskiest hosts {whatIf ? <span className="chip chip-accent">what-if</span> : null}</h3>
      </header>
      {hosts.length === 0 ? (
        <p className="muted zta-card-note">{unscored ? 'The hosts these filters show are not assessed: with no score, none is among the riskiest.' : 'No host matches these filters.'}</p>
      ) : (
        <ol className="zta-list zta-card-body">
          {hosts.map((h) => (
            <li key={`${h.connectorId}:${h.hostId}`}>
              <button type="button" className="link-button" onClick={() => onOpen(h.hostId)} title={`Open ${h.hostname} (${h.hostId})`}>
                {h.hostname}
              </button>
              <span className="zta-move">
                <strong>{scoreText(h.score)}</strong> <BandChip band={h.band} />
              </span>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
});
