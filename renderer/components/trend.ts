/**
 * The band trend as the Overview, the dashboard and the report draw it (issue 22.5): the fleet's
 * hosts per band over *time* — each point a moment (main merges cycles that end within a minute of
 * each other, EDR-Z14), placed by its time on a time axis, with a count axis of round steps from 0
 * (0/150/300/450/600 for 500 hosts). One shaping for the three charts, so they never disagree.
 */
import { BANDS, type BandCounts } from '../../shared/model/zta';
import type { TimeFormat } from './format';

export interface TrendDatum extends BandCounts {
  /** Epoch ms: the x value. */
  t: number;
  at: string;
}

/** The points to draw: from the first with a host (earlier ones are another filter's), by time. */
export function trendData(points: ReadonlyArray<{ at: string; bands: BandCounts }>): TrendDatum[] {
  const first = points.findIndex((p) => Object.values(p.bands).some((n) => n > 0));
  if (first < 0) return [];
  return points.slice(first).map((p) => ({ t: Date.parse(p.at), at: p.at, ...p.bands }));
}

/** The largest stack of a trend (all bands of one point). */
export const trendMax = (data: readonly TrendDatum[]): number => data.reduce((m, d) => Math.max(m, BANDS.reduce((n, b) => n + d[b], 0)), 0);

/**
 * Ticks of a count axis from 0 to a round value at or above `max`, in at most `most` steps of a
 * round, whole size (1, 1.5, 2, 2.5 or 5 × 10^k): 500 hosts in 4 steps → 0, 150, 300, 450, 600.
 */
export function niceTicks(max: number, most = 4): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / most;
  const pow = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 1.5, 2, 2.5, 5, 10].map((m) => m * pow).find((s) => s >= raw && Number.isInteger(s)) ?? 10 * pow);
  const top = Math.ceil(max / step) * step;
  const out: number[] = [];
  for (let v = 0; v <= top + step / 2; v += step) out.push(Math.round(v));
  return out;
}

/** How a time tick reads: with seconds within an hour's span, the time of day within a day's, else the date and time. */
export function timeTick(tf: TimeFormat, data: readonly TrendDatum[]): (t: number) => string {
  const span = data.length ? data[data.length - 1]!.t - data[0]!.t : 0;
  return (t) => {
    const iso = new Date(t).toISOString();
    if (span < 3_600_000) return tf.time(iso);
    return span < 86_400_000 ? tf.time(iso).slice(0, 5) : tf.dateTime(iso).slice(5, 16);
  };
}

/** The x domain: the points' times, or an hour around a single point (so it is drawn at its time, not stretched). */
export function timeDomain(data: readonly TrendDatum[]): [number, number] {
  if (data.length === 0) return [0, 1];
  const from = data[0]!.t;
  const to = data[data.length - 1]!.t;
  return from === to ? [from - 1_800_000, to + 1_800_000] : [from, to];
}
