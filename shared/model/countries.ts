/**
 * ISO 3166-1 alpha-2 country codes with their English names (i18n-iso-countries), for the
 * device record's `locationInfo.country` (spec 2.3: "two letters") and the country picker.
 */
import countries from 'i18n-iso-countries';
import en from 'i18n-iso-countries/langs/en.json';

countries.registerLocale(en);

export interface Country {
  code: string;
  name: string;
}

/** Every officially assigned code, sorted by English name. */
export const COUNTRIES: readonly Country[] = Object.freeze(
  Object.keys(countries.getAlpha2Codes())
    .map((code) => ({ code, name: countries.getName(code, 'en', { select: 'official' }) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en')),
);

const CODES = new Set(COUNTRIES.map((c) => c.code));

/** True for an assigned ISO 3166-1 alpha-2 code, in any letter case. */
export const isCountryCode = (code: string): boolean => CODES.has(code.toUpperCase());

/** The English name of a code, or the code itself when it is not assigned. */
export const countryName = (code: string): string => countries.getName(code.toUpperCase(), 'en', { select: 'official' }) ?? code.toUpperCase();
