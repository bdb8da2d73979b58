/**
 * The report's charts (recharts): the band distribution and the band counts per cycle. Fixed
 * sizes (a printed A4 page is about 700 px wide) and no animation, so the page is complete at its
 * first paint: the PDF is printed as soon as the data is there, and a print never catches a bar
 * half grown.
 */
import { Area, AreaChart, Bar, BarChart, CartesianGrid, Cell, LabelList, Legend, XAxis, YAxis } from 'recharts';
import { BANDS, type BandCounts } from '../../../../shared/model/zta';
import { useTimeFormat } from '../../../components/useTimeFormat';
import { BAND_COLORS } from './report-model';
import { niceTicks, timeDomain, timeTick, trendData, trendMax } from '../../../components/trend';

export const CHART_WIDTH = 680;
const AXIS = { fontSize: 11, fill: 'currentColor' } as const;

export function BandChart({ bands }: { bands: BandCounts }) {
  const data = BANDS.map((band) => ({ band, hosts: bands[band] }));
  return (
    <div className="report-chart" data-testid="report-band-chart" role="img" aria-label={`Hosts per band: ${BANDS.map((b) => `${b} ${bands[b]}`).join(', ')}.`}>
      <BarChart width={CHART_WIDTH} height={200} data={data} margin={{ top: 18, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke="#8a94a2" strokeOpacity={0.3} />
        <XAxis dataKey="band" tick={AXIS} tickLine={false} />
        <YAxis allowDecimals={false} tick={AXIS} tickLine={false} axisLine={false} width={44} />
        <Bar dataKey="hosts" isAnimationActive={false}>
          {data.map((d) => (
            <Cell key={d.band} fill={BAND_COLORS[d.band]} />
          ))}
          <LabelList dataKey="hosts" position="top" style={AXIS} />
        </Bar>
      </BarChart>
    </div>
  );
}

export function TrendChart({ trend }: { trend: ReadonlyArray<{ at: string; bands: BandCounts }> }) {
  const tf = useTimeFormat();
  // The window's shaping (components/trend.ts): points at their times, a count axis of round steps.
  const data = trendData(trend);
  const ticks = niceTicks(trendMax(data));
  return (
    <div className="report-chart" data-testid="report-trend-chart" data-ticks={ticks.join('/')} role="img" aria-label={`Hosts per band over time, ${data.length} points.`}>
      <AreaChart width={CHART_WIDTH} height={220} data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }}>
        <CartesianGrid vertical={false} stroke="#8a94a2" strokeOpacity={0.3} />
        <XAxis dataKey="t" type="number" scale="time" domain={timeDomain(data)} tickFormatter={timeTick(tf, data)} tick={AXIS} tickLine={false} minTickGap={28} />
        <YAxis allowDecimals={false} domain={[0, ticks[ticks.length - 1]!]} ticks={ticks} tick={AXIS} tickLine={false} axisLine={false} width={44} />
        <Legend iconType="square" wrapperStyle={{ fontSize: 11 }} itemSorter={(item) => BANDS.indexOf(item.value as (typeof BANDS)[number])} />
        {BANDS.map((b) => (
          <Area key={b} type="stepAfter" dataKey={b} stackId="bands" stroke={BAND_COLORS[b]} fill={BAND_COLORS[b]} fillOpacity={0.75} isAnimationActive={false} dot={false} />
        ))}
      </AreaChart>
      <p className="small muted">
        Times in {tf.zoneLabel(trend.at(-1)?.at)}; each point is the fleet at a moment: every connector’s newest completed cycle then (polls and rescorings; cycles ending within a minute are one
        point).
      </p>
    </div>
  );
}
