/**
 * Risk bands: the band distribution per customer or per platform of the hosts the filters show,
 * drawn as stacked bars (recharts). Clicking a bar's band filters the table by that customer (or
 * platform) and band; the band totals under the chart filter by band alone. Both go through the
 * address like any filter. Under a what-if the bars are the what-if's.
 */
import { memo, useMemo, useState } from 'react';
import { Bar, BarChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Platform, RiskBand } from '../../../shared/model/edr';
import { BANDS } from '../../../shared/model/zta';
import { formatCount } from '../../components/format';
import { distributionOf, type CountsByCustomer, type DistributionBy, type DistributionGroup } from './distribution';
import { bandColor, bandClass } from '../../components/zta-labels';

export interface DistributionPick {
  customer?: string;
  platform?: Platform;
  band?: RiskBand | '';
}

export interface DistributionCardProps {
  /** The hosts every filter but the band passes, by customer → platform and band (the store's counts, or a what-if's rows counted). */
  counts: CountsByCustomer;
  band: RiskBand | '';
  whatIf: boolean;
  /** With one customer chosen the card shows its platforms, unless asked otherwise. */
  customerChosen: boolean;
  /** Customer ID → its name where known (customer-names.ts). */
  customerNames: ReadonlyMap<string, string | undefined>;
  onPick(pick: DistributionPick): void;
}

/** Room for a label on the customer axis (px, at 11 px text); a longer name is cut with an ellipsis, the whole of it on hover. */
const CUSTOMER_AXIS = 140;
const LABEL_CHARS = 21;

/** A category label with its whole text (a customer's name and ID) as its hover. */
function AxisTick({ x, y, payload, titles }: { x?: number; y?: number; payload?: { value: string }; titles: ReadonlyMap<string, { label: string; title: string }> }) {
  const t = titles.get(payload?.value ?? '');
  const label = t?.label ?? payload?.value ?? '';
  const shown = label.length > LABEL_CHARS ? `${label.slice(0, LABEL_CHARS - 1)}…` : label;
  return (
    <text x={x} y={y} dy={4} textAnchor="end" fontSize={11} fill="var(--text-muted)" data-testid="zta-distribution-label">
      <title>{t?.title ?? label}</title>
      {shown}
    </text>
  );
}

export const DistributionCard = memo(function DistributionCard({ counts, band, whatIf, customerChosen, customerNames, onPick }: DistributionCardProps) {
  const [chosen, setBy] = useState<DistributionBy>();
  const by = chosen ?? (customerChosen ? 'platform' : 'customer');
  const d = useMemo(() => distributionOf(counts, by, customerNames), [counts, by, customerNames]);
  const titles = useMemo(() => new Map(d.groups.map((g) => [g.key, { label: g.label, title: g.title }])), [d]);
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
            <YAxis type="category" dataKey="key" width={by === 'customer' ? CUSTOMER_AXIS : 70} tick={<AxisTick titles={titles} />} stroke="var(--border-strong)" interval={0} />
            <Tooltip
              cursor={{ fill: 'var(--surface-3)' }}
              contentStyle={{ background: 'var(--surface)', border: '1px solid var(--border)', borderRadius: 6, fontSize: 12 }}
              labelStyle={{ color: 'var(--text)' }}
              labelFormatter={(key) => titles.get(String(key))?.title ?? String(key)}
            />
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
      {counts.exact === false ? (
        <p className="muted zta-card-note" data-testid="zta-distribution-partial">
          More hosts match this search than were counted: the bars count the first {formatCount(d.hosts)}. Type more to narrow it.
        </p>
      ) : null}
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
