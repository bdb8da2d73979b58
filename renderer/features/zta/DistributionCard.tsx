/**
 * Risk bands: the band distribution per customer or per platform of the hosts the filters show,
 * drawn as stacked bars (recharts). Clicking a bar's band filters the table by that customer (or
 * platform) and band; the band totals under the chart filter by band alone. Both go through the
 * address like any filter. Under a what-if the bars are the what-if's.
 */
import { memo, useMemo, useState } from 'react';
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Platform, RiskBand } from '../../../shared/model/edr';
import { BANDS, type ZtaSnapshot } from '../../../shared/model/zta';
import { formatCount } from '../../components/format';
import { distribution, type DistributionBy, type DistributionGroup } from './distribution';
import { bandColor, bandClass } from '../../components/zta-labels';

export interface DistributionPick {
  customer?: string;
  platform?: Platform;
  band?: RiskBand | '';
}

export interface DistributionCardProps {
  shown: ZtaSnapshot;
  /** The rows every filter but the band passes. */
  rows: Int32Array;
  band: RiskBand | '';
  whatIf: boolean;
  /** With one customer chosen the card shows its platforms, unless asked otherwise. */
  customerChosen: boolean;
  onPick(pick: DistributionPick): void;
}

export const DistributionCard = memo(function DistributionCard({ shown, rows, band, whatIf, customerChosen, onPick }: DistributionCardProps) {
  const [chosen, setBy] = useState<DistributionBy>();
  const by = chosen ?? (customerChosen ? 'platform' : 'customer');
  const d = useMemo(() => distribution(shown, rows, by), [shown, rows, by]);
  const height = Math.max(120, 28 * d.groups.length + 40);
  const pick = (g: DistributionGroup, b: RiskBand) => {
    if (g.other) return onPick({ band: b });
    onPick(by === 'customer' ? { customer: g.key, band: b } : { platform: g.key as Platform, band: b });
  };
  return (
    <section className="zta-card zta-distribution" aria-labelledby="zta-dist-title" data-testid="zta-distribution">
      <header className="zta-card-head">
        <h3 id="zta-dist-title">
          Risk bands {whatIf ? <span className="chip chip-accent">what-if</span> : null}
        </h3>
        <div className="segmented" role="group" aria-label="Distribution by">
          {(['customer', 'platform'] as const).map((k) => (
            <button key={k} type="button" className={by === k ? 'active' : undefined} aria-pressed={by === k} onClick={() => setBy(k)}>
              per {k}
            </button>
          ))}
        </div>
      </header>
      <div className="zta-chart" style={{ height: Math.min(height, 160) }}>
        <ResponsiveContainer width="100%" height="100%" initialDimension={{ width: 480, height: Math.min(height, 160) }}>
          <BarChart data={d.groups} layout="vertical" margin={{ top: 4, right: 12, bottom: 0, left: 4 }} barCategoryGap={4}>
            <XAxis type="number" allowDecimals={false} tick={{ fontSize: 11, fill: 'var(--text-muted)' }} stroke="var(--border-strong)" />
            <YAxis type="category" dataKey="label" width={by === 'customer' ? 130 : 70} tick={{ fontSize: 11, fill: 'var(--text-muted)' }} stroke="var(--border-strong)" tickFormatter={(v: string) => (v.length > 18 ? `${v.slice(0, 17)}…` : v)} />
            <Tooltip cursor={{ fill: 'var(--surface-3)' }} contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', borderRadius: 6, fontSize: 12 }} labelStyle={{ color: 'var(--text)' }} />
            {BANDS.map((b) => (
              <Bar
                key={b}
                dataKey={b}
                stackId="bands"
                fill={bandColor(b)}
                fillOpacity={band && band !== b ? 0.3 : 1}
                isAnimationActive={false}
                cursor="pointer"
                onClick={(item) => pick(item.payload as DistributionGroup, b)}
              />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
      <ul className="zta-band-totals" aria-label="Hosts per band">
        {BANDS.map((b) => (
          <li key={b}>
            <button
              type="button"
              className={`zta-band-total ${bandClass(b)}`}
              aria-pressed={band === b}
              onClick={() => onPick({ band: band === b ? '' : b })}
              data-testid={`band-total-${b}`}
              title={band === b ? 'Show every band' : `Show only ${b}`}
            >
              <span className="zta-swatch" aria-hidden="true" />
              {b} <strong>{formatCount(d.totals[b])}</strong>
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
});
