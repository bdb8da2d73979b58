/** How long risk history is kept (EDR-H4). */
import { RiskHistoryDays } from '../../../shared/model/settings';
import { HistoryDaysForm } from './HistoryDaysForm';

export function RiskHistorySetting() {
  return (
    <section className="card" aria-labelledby="risk-history-title">
      <h2 id="risk-history-title">Risk history</h2>
      <HistoryDaysForm
        setting="riskHistoryDays"
        schema={RiskHistoryDays}
        formLabel="Risk history"
        label="Keep risk history for (days)"
        hint="Score changes and per-cycle band counts older than this are deleted after each poll. The newest poll of every connector is always kept."
      />
    </section>
  );
}
