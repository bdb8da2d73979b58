/** Step 5: everything entered, with an Edit link per step, before the device is sent to the node. */
import { Pencil } from 'lucide-react';
import type { ReactNode } from 'react';
import { countryName } from '../../../../shared/model/countries';
import type { WizardValues } from '../../../components/wizard-model';
import { WorldPreview } from '../../../components/WorldPreview';

export function ReviewStep({ values, onEdit, failure }: { values: WizardValues; onEdit(step: number): void; failure?: ReactNode }) {
  const loc = values.locationInfo;
  const country = loc.country.trim().toUpperCase();
  const section = (step: number, title: string, rows: [string, ReactNode][]) => (
    <section className="review-section" aria-label={title}>
      <header>
        <h3>{title}</h3>
        <button type="button" className="button button-small button-ghost" onClick={() => onEdit(step)} aria-label={`Edit ${title.toLowerCase()}`}>
          <Pencil size={12} aria-hidden="true" />
          Edit
        </button>
      </header>
      <dl className="details">
        {rows.map(([k, v]) => (
          <div key={k} className="review-row">
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
  return (
    <div className="wizard-step review" data-testid="wizard-review">
      {failure}
      <div className="review-grid">
        <div>
          {section(0, 'Organization', [['Organization', values.orgName]])}
          {section(1, 'Identity', [
            ['Device name', <span className="mono">{values.deviceName.trim()}</span>],
            ['Site ID', <span className="mono">{values.siteId.trim()}</span>],
            ['Serial number', <span className="mono">{values.serialNumber.trim()}</span>],
          ])}
          {section(2, 'Location', [
            ['Country', `${countryName(country)} (${country})`],
            ['Latitude', <span className="mono">{loc.latitude.trim()}</span>],
            ['Longitude', <span className="mono">{loc.longitude.trim()}</span>],
          ])}
          {section(3, 'Device group', [['Device group', values.deviceGroup.trim()]])}
        </div>
        <WorldPreview latitude={loc.latitude} longitude={loc.longitude} label={countryName(country)} compact />
      </div>
      <p className="muted">Onboard saves the device on the node; deploying it is the next step.</p>
    </div>
  );
}
