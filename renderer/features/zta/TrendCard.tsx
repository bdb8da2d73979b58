/** The fleet's bands over time (zta.overview's trend, for the filters main applies to it; components/trend.ts shapes it). */
import { memo } from 'react';
import type { ZtaOverview } from '../../../shared/model/zta';
import { TrendAreas } from '../../components/TrendAreas';
import { trendData } from '../../components/trend';

export const TrendCard = memo(function TrendCard({ trend }: { trend: ZtaOverview['trend'] | undefined }) {
  const data = trendData(trend ?? []);
  return (
    <section className="zta-card" aria-labelledby="zta-trend-title" data-testid="zta-trend">
      <header className="zta-card-head">
        <h3 id="zta-trend-title">Bands over time</h3>
        <span className="muted" data-testid="zta-trend-points">
          {data.length === 1 ? '1 point' : `${data.length} points`}
        </span>
      </header>
      {data.length === 0 ? (
        <p className="muted zta-card-note">No completed cycle for these filters.</p>
      ) : data.length === 1 ? (
        <p className="muted zta-card-note">One point so far: the trend draws from the next cycle on.</p>
      ) : (
        <TrendAreas data={data} height={190} />
      )}
    </section>
  );
});
