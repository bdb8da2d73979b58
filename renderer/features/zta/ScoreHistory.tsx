/**
 * A host's score across cycles (zta.host history, oldest first) as a step line (a score holds
 * until it moves) over the tenant's bands: band areas and lines at the band edges, rescored cycles
 * marked with a diamond. A table of the same points follows for screen readers.
 */
import { Line, LineChart, ReferenceArea, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ZtaHostDetail } from '../../../shared/model/zta';
import { RISK_BANDS } from '../../../shared/risk/bands';
import { useTimeFormat } from '../../components/useTimeFormat';
import { bandColor, scoreText } from '../../components/zta-labels';

type Point = ZtaHostDetail['history'][number];

function HistoryDot(props: { cx?: number; cy?: number; payload?: Point }) {
  const { cx, cy, payload } = props;
  if (cx === undefined || cy === undefined || Number.isNaN(cy) || !payload || payload.score === null) return null;
  if (payload.kind === 'rescore') {
    return <path d={`M${cx},${cy - 6} L${cx + 6},${cy} L${cx},${cy + 6} L${cx - 6},${cy} Z`} fill="var(--accent)" stroke="var(--surface)" strokeWidth={1} />;
  }
  return <circle cx={cx} cy={cy} r={3} fill="var(--text)" />;
}

export function ScoreHistory({ history, edges }: { history: ZtaHostDetail['history']; edges: ZtaHostDetail['bandEdges'] }) {
  const tf = useTimeFormat();
  const bounds = [0, ...edges.map((e) => e + 0.5), 100];
  const rescored = history.filter((p) => p.kind === 'rescore').length;
  const notAssessed = history.filter((p) => p.score === null).length;
  return (
    <section className="zta-history" aria-labelledby="zta-history-title" data-testid="zta-history">
      <h3 id="zta-history-title">Score over the cycles</h3>
      <p className="muted">
        {history.length === 1 ? '1 cycle' : `${history.length} cycles`}
        {notAssessed === 0 ? '' : notAssessed === history.length ? ` · not assessed in ${notAssessed === 1 ? 'it' : 'any'}: no score to draw` : ` · not assessed in ${notAssessed} (no point drawn for them)`}
        {rescored ? ` · ${rescored} rescored (◆: scored again under changed risk settings)` : ''}
      </p>
      {notAssessed === history.length ? null : (
        <div className="zta-chart" style={{ height: 200 }}>
          <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 560, height: 200 }}>
            {/* The band labels sit in the right margin, beside their lines: the score line never crosses them (issue 22.13). */}
            <LineChart data={history} margin={{ top: 8, right: 142, bottom: 0, left: 0 }}>
              {RISK_BANDS.map((b, i) => (
                <ReferenceArea key={b} y1={bounds[i]} y2={bounds[i + 1]} fill={bandColor(b)} fillOpacity={0.1} stroke="none" ifOverflow="hidden" />
              ))}
              {edges.map((e, i) => (
                <ReferenceLine key={e} y={e + 0.5} stroke={bandColor(RISK_BANDS[i + 1]!)} strokeDasharray="4 3" label={{ value: `${RISK_BANDS[i + 1]} above ${e}`, position: 'right', fontSize: 10, fill: 'var(--text-muted)' }} />
              ))}
              <XAxis dataKey="at" tickFormatter={(v: string) => tf.dateTime(v).slice(5, 16)} tick={{ fontSize: 11, fill: 'var(--text-muted)' }} stroke="var(--border-strong)" minTickGap={24} />
              <YAxis domain={[0, 100]} ticks={[0, 20, 40, 60, 80, 100]} width={36} tick={{ fontSize: 11, fill: 'var(--text-muted)' }} stroke="var(--border-strong)" />
              <Tooltip
                labelFormatter={(v) => tf.dateTime(String(v))}
                formatter={(v, _n, item) => [`${v === null || v === undefined ? 'no score' : scoreText(Number(v))} (${(item.payload as Point).band}${(item.payload as Point).kind === 'rescore' ? ', rescored' : ''})`, 'Score']}
                contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', borderRadius: 6, fontSize: 12 }}
                labelStyle={{ color: 'var(--text)' }}
              />
              <Line type="stepAfter" dataKey="score" stroke="var(--text)" strokeWidth={2} dot={<HistoryDot />} activeDot={{ r: 5 }} isAnimationActive={false} />
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
      <table className="sr-only" aria-label="Score at each cycle">
        <thead>
          <tr>
            <th>Cycle</th>
            <th>Score</th>
            <th>Band</th>
            <th>Kind</th>
          </tr>
        </thead>
        <tbody>
          {history.map((p) => (
            <tr key={p.cycleId} data-testid="zta-history-point">
              <td>{tf.dateTime(p.at)}</td>
              <td>{scoreText(p.score)}</td>
              <td>{p.band}</td>
              <td>{p.kind === 'rescore' ? 'rescored' : 'poll'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
