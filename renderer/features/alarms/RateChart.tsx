/** Alarm changes per minute over the last hour (alarms.rate, recharts), live: critical, major, the rest and clears stacked. */
import { memo, useMemo } from 'react';
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AlarmRate } from '../../../shared/model/alarms';
import { formatCount } from '../../components/format';
import { useTimeFormat } from '../../components/useTimeFormat';
import { severityColor } from './labels';

const SERIES = [
  { key: 'critical', name: 'critical', color: severityColor('critical') },
  { key: 'major', name: 'major', color: severityColor('major') },
  { key: 'other', name: 'minor, warning, other', color: severityColor('minor') },
  { key: 'cleared', name: 'cleared', color: severityColor('cleared') },
] as const;

export const RateChart = memo(function RateChart({ rate }: { rate: AlarmRate | undefined }) {
  const tf = useTimeFormat();
  const data = useMemo(() => (rate?.buckets ?? []).map((b) => ({ at: b.at, critical: b.critical, major: b.major, cleared: b.cleared, other: Math.max(0, b.count - b.critical - b.major - b.cleared), count: b.count })), [rate]);
  const lastMinute = data.length > 1 ? data[data.length - 2]!.count : 0;
  const hour = data.reduce((n, b) => n + b.count, 0);
  return (
    <section className="alarm-card alarm-rate" aria-labelledby="alarm-rate-title" data-testid="alarm-rate">
      <header className="alarm-card-head">
        <h3 id="alarm-rate-title">Changes per minute</h3>
        <span className="muted" data-testid="alarm-rate-total">
          {rate ? `${formatCount(hour)} in the last hour · ${formatCount(lastMinute)} in the last full minute` : 'Reading…'}
        </span>
      </header>
      <div className="alarm-chart" style={{ height: 150 }} role="img" aria-label={`Alarm changes per minute over the last hour: ${formatCount(hour)} in all`}>
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 420, height: 150 }}>
          <BarChart data={data} margin={{ top: 6, right: 8, bottom: 0, left: 0 }} barCategoryGap={1}>
            <XAxis dataKey="at" tickFormatter={(v: string) => tf.time(v).slice(0, 5)} tick={{ fontSize: 11, fill: 'var(--text-muted)' }} stroke="var(--border-strong)" minTickGap={28} />
            <YAxis allowDecimals={false} width={40} tick={{ fontSize: 11, fill: 'var(--text-muted)' }} stroke="var(--border-strong)" />
            <Tooltip
              labelFormatter={(v) => tf.dateTime(String(v))}
              contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', borderRadius: 6, fontSize: 12 }}
              labelStyle={{ color: 'var(--text)' }}
              cursor={{ fill: 'var(--surface-3)' }}
            />
            {SERIES.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={s.name} stackId="changes" fill={s.color} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </section>
  );
});
