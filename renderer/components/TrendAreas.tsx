/**
 * The band trend chart of the window (the Overview's tile and the dashboard's card): stacked areas
 * over a time axis (points at their times), a count axis of round steps from 0 (components/trend.ts).
 */
import { Area, AreaChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { BANDS } from '../../shared/model/zta';
import { niceTicks, timeDomain, timeTick, trendMax, type TrendDatum } from './trend';
import { useTimeFormat } from './useTimeFormat';
import { bandColor } from './zta-labels';

export function TrendAreas({ data, height }: { data: TrendDatum[]; height: number }) {
  const tf = useTimeFormat();
  const ticks = niceTicks(trendMax(data));
  return (
    <div className="zta-chart" style={{ height }} data-testid="trend-chart" data-ticks={ticks.join('/')}>
      <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 420, height }}>
        <AreaChart data={data} margin={{ top: 6, right: 12, bottom: 0, left: 0 }}>
          <XAxis
            dataKey="t"
            type="number"
            scale="time"
            domain={timeDomain(data)}
            tickFormatter={timeTick(tf, data)}
            tick={{ fontSize: 11, fill: 'var(--text-muted)' }}
            stroke="var(--border-strong)"
            minTickGap={28}
          />
          <YAxis allowDecimals={false} width={44} domain={[0, ticks[ticks.length - 1]!]} ticks={ticks} tick={{ fontSize: 11, fill: 'var(--text-muted)' }} stroke="var(--border-strong)" />
          <Tooltip labelFormatter={(t) => tf.dateTime(new Date(Number(t)).toISOString())} contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', borderRadius: 6, fontSize: 12 }} labelStyle={{ color: 'var(--text)' }} />
          {BANDS.map((b) => (
            <Area key={b} type="stepAfter" dataKey={b} stackId="bands" stroke={bandColor(b)} fill={bandColor(b)} fillOpacity={0.55} isAnimationActive={false} dot={false} />
          ))}
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}
