/** The trend of band counts over the cycles (zta.overview's trend, for the filters main applies to it). */
import { memo } from 'react';
import { Area, AreaChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { ZtaOverview } from '../../../shared/model/zta';
import { BANDS } from '../../../shared/model/zta';
import { useTimeFormat } from '../../components/useTimeFormat';
import { bandColor } from '../../components/zta-labels';

export const TrendCard = memo(function TrendCard({ trend }: { trend: ZtaOverview['trend'] | undefined }) {
  const tf = useTimeFormat();
  // Cycles before the first one with a host of these filters (another tenant's) say nothing here.
  const points = trend ?? [];
  const first = points.findIndex((p) => Object.values(p.bands).some((n) => n > 0));
  const data = (first < 0 ? [] : points.slice(first)).map((p) => ({ at: p.at, ...p.bands }));
  return (
    <section className="zta-card" aria-labelledby="zta-trend-title" data-testid="zta-trend">
      <header className="zta-card-head">
        <h3 id="zta-trend-title">Bands over the cycles</h3>
        <span className="muted">{data.length === 1 ? '1 cycle' : `${data.length} cycles`}</span>
      </header>
      {data.length === 0 ? (
        <p className="muted zta-card-note">No completed cycle for these filters.</p>
      ) : (
        <div className="zta-chart" style={{ height: 190 }}>
          <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 420, height: 190 }}>
            <AreaChart data={data} margin={{ top: 6, right: 12, bottom: 0, left: 0 }}>
              <XAxis dataKey="at" tickFormatter={(v: string) => tf.dateTime(v).slice(5, 16)} tick={{ fontSize: 11, fill: 'var(--text-muted)' }} stroke="var(--border-strong)" minTickGap={24} />
              <YAxis allowDecimals={false} width={44} tick={{ fontSize: 11, fill: 'var(--text-muted)' }} stroke="var(--border-strong)" />
              <Tooltip labelFormatter={(v) => tf.dateTime(String(v))} contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', borderRadius: 6, fontSize: 12 }} labelStyle={{ color: 'var(--text)' }} />
              {BANDS.map((b) => (
                <Area key={b} type="linear" dataKey={b} stackId="bands" stroke={bandColor(b)} fill={bandColor(b)} fillOpacity={0.55} isAnimationActive={false} dot={data.length === 1} />
              ))}
            </AreaChart>
          </ResponsiveContainer>
        </div>
      )}
    </section>
  );
});
