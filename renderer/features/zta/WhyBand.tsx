/**
 * Why this host has its band: the 0–100 scale with the tenant's bands and the host's score on it,
 * then each contribution drawn as a bar on the same scale, largest first, in words (explain.ts);
 * what added nothing is listed after.
 */
import type { NotAssessedPublication } from '../../../shared/model/connector';
import { NOT_ASSESSED, type Contribution, type RiskBand } from '../../../shared/model/edr';
import { RISK_BANDS } from '../../../shared/risk/bands';
import { bandSentence, reasons } from './explain';
import { bandColor } from '../../components/zta-labels';
import { NOT_ASSESSED_CHOICES } from '../../components/connector-labels';

type Edges = [number, number, number, number];

function BandScale({ score, edges }: { score: number; edges: Edges }) {
  const bounds = [0, ...edges.map((e) => e + 0.5), 100];
  return (
    <div className="zta-scale" role="img" aria-label={`Score ${score.toFixed(1)} on the 0 to 100 scale`}>
      {RISK_BANDS.map((b, i) => (
        <span key={b} className="zta-scale-band" style={{ left: `${bounds[i]}%`, width: `${bounds[i + 1]! - bounds[i]!}%`, background: bandColor(b) }} title={b} />
      ))}
      <span className="zta-scale-mark" style={{ left: `${Math.max(0, Math.min(100, score))}%` }} />
    </div>
  );
}

function NotAssessedWhy({ contributions, published }: { contributions: readonly Contribution[]; published: NotAssessedPublication }) {
  return (
    <section className="zta-why" aria-labelledby="zta-why-title" data-testid="zta-why">
      <h3 id="zta-why-title">Why this host is Not assessed</h3>
      {contributions.map((c) => (
        <p key={c.indicator} data-testid="zta-not-assessed-reason">
          {c.detail.replace(/^Not assessed: /, '').replace(/^./, (x) => x.toUpperCase())}.
        </p>
      ))}
      <p className="muted">It has no score of its own, and is counted apart from the five bands, never among the riskiest hosts.</p>
      <p data-testid="zta-not-assessed-published">
        {NOT_ASSESSED_CHOICES[published].forHost} <span className="muted">The connector’s choice, on the Connectors page.</span>
      </p>
    </section>
  );
}

export function WhyBand({
  score,
  band,
  edges,
  contributions,
  notAssessed,
}: {
  score: number | null;
  band: RiskBand;
  edges: Edges;
  contributions: readonly Contribution[];
  notAssessed: NotAssessedPublication;
}) {
  if (band === NOT_ASSESSED || score === null) return <NotAssessedWhy contributions={contributions} published={notAssessed} />;
  const { counted, nothing } = reasons(contributions);
  return (
    <section className="zta-why" aria-labelledby="zta-why-title" data-testid="zta-why">
      <h3 id="zta-why-title">Why this host is {band}</h3>
      <p>{bandSentence(score, band, edges)}</p>
      <BandScale score={score} edges={edges} />
      {counted.length === 0 ? (
        <p className="muted">Nothing counted against this host: every indicator is clean.</p>
      ) : (
        <ol className="zta-reasons" aria-label="What adds to the score, largest first">
          {counted.map((r) => (
            <li key={r.contribution.indicator} className="zta-reason" data-testid="zta-reason">
              <div className="zta-reason-text">
                <strong>{r.what}</strong>
                <span className="muted">{r.meaning}</span>
              </div>
              <div className="zta-reason-bar" aria-hidden="true">
                <span style={{ width: `${Math.min(100, r.contribution.scoreShare)}%`, background: bandColor(band) }} />
              </div>
              <span className="zta-reason-how">{r.how}</span>
            </li>
          ))}
        </ol>
      )}
      {nothing.length > 0 ? (
        <p className="zta-nothing">
          <span className="muted">Adds nothing: </span>
          {nothing.map((r) => (
            <span key={r.contribution.indicator} className="chip" title={r.meaning}>
              {r.what}
            </span>
          ))}
        </p>
      ) : null}
    </section>
  );
}
