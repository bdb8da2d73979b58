/** Step 3: the country (searchable by name or code), latitude and longitude, with a map-like preview. */
import { useMemo, useState } from 'react';
import { useController, useWatch } from 'react-hook-form';
import { COUNTRIES, countryName, isCountryCode, type Country } from '../../../../shared/model/countries';
import { TextField } from '../../../components/Field';
import { SearchableList } from '../../../components/SearchableList';
import { WorldPreview } from '../../../components/WorldPreview';
import type { StepProps } from './types';

/** Countries whose code is the query first, then names starting with it, then names containing it. */
export function searchCountries(query: string): readonly Country[] {
  const q = query.trim().toLowerCase();
  if (!q) return COUNTRIES;
  const code: Country[] = [];
  const starts: Country[] = [];
  const contains: Country[] = [];
  for (const c of COUNTRIES) {
    const name = c.name.toLowerCase();
    if (c.code.toLowerCase() === q) code.push(c);
    else if (name.startsWith(q)) starts.push(c);
    else if (name.includes(q)) contains.push(c);
  }
  return [...code, ...starts, ...contains];
}

export function LocationStep({ form }: StepProps) {
  const { register, formState } = form;
  const errors = formState.errors.locationInfo;
  const { field, fieldState } = useController({ control: form.control, name: 'locationInfo.country' });
  const [query, setQuery] = useState('');
  const items = useMemo(() => searchCountries(query), [query]);
  const [latitude, longitude] = useWatch({ control: form.control, name: ['locationInfo.latitude', 'locationInfo.longitude'] });
  const code = field.value.toUpperCase();
  const chosen = isCountryCode(code) ? countryName(code) : undefined;

  return (
    <div className="wizard-step location-step">
      <SearchableList<Country>
        label="Country"
        items={items}
        query={query}
        onQuery={setQuery}
        itemKey={(c) => c.code}
        value={code}
        onPick={(c) => {
          field.onChange(c.code);
          form.clearErrors('locationInfo.country');
        }}
        renderItem={(c) => (
          <span className="country-option">
            <span className="country-code mono">{c.code}</span>
            <span>{c.name}</span>
          </span>
        )}
        placeholder="Search by name or code, e.g. Germany or DE"
        error={fieldState.error?.message}
        hint={chosen ? `Chosen: ${chosen} (${code})` : 'ISO 3166-1 two-letter code.'}
        testId="country-picker"
        autoFocus
      />
      <div className="location-side">
        <div className="form-grid">
          <TextField label="Latitude" inputMode="decimal" autoComplete="off" placeholder="52.52" {...register('locationInfo.latitude')} error={errors?.latitude?.message} hint="−90 to 90" />
          <TextField label="Longitude" inputMode="decimal" autoComplete="off" placeholder="13.405" {...register('locationInfo.longitude')} error={errors?.longitude?.message} hint="−180 to 180" />
        </div>
        <WorldPreview latitude={latitude} longitude={longitude} label={chosen} />
      </div>
    </div>
  );
}
