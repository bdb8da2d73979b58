/** Words and small pieces the ZTA dashboard shows: bands, vendors, Defender's values, times "as of". */
import type { Platform, RiskBand, Vendor } from '../../shared/model/edr';
import { BANDS } from '../../shared/model/zta';

/** CSS class of a band (colours in styles/zta.css, light and dark). */
export const bandClass = (band: RiskBand) => `band-${BANDS.indexOf(band)}`;
/** The band's colour for charts (a CSS variable, so the theme decides). */
export const bandColor = (band: RiskBand) => `var(--band-${BANDS.indexOf(band)})`;

export function BandChip({ band }: { band: RiskBand }) {
  return <span className={`chip band-chip ${bandClass(band)}`}>{band}</span>;
}

export const vendorShort: Record<Vendor, string> = { falcon: 'Falcon', defender: 'Defender' };
export const PLATFORM_LABEL: Record<Platform, string> = { Windows: 'Windows', Mac: 'Mac', Linux: 'Linux', Other: 'Other' };

/** Defender's enum values in words: "ImpairedCommunication" → "Impaired communication". */
export function words(value: string): string {
  const spaced = value.replace(/([a-z])([A-Z])/g, '$1 $2');
  return spaced.charAt(0) + spaced.slice(1).toLowerCase();
}

/** Score as the table shows it: one decimal. */
export const scoreText = (score: number | null) => (score === null ? '—' : score.toFixed(1));
