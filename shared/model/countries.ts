/**
 * ISO 3166-1 alpha-2 country codes (i18n-iso-countries) with their English names (Intl.DisplayNames), for the
 * device record's `locationInfo.country` (spec 2.3: "two letters") and the country picker.
 */
import countries from 'i18n-iso-countries';

/*
 * Names come from the runtime's own ICU data (Node and Chromium both ship it), not from the
 * package's JSON locale files: a JSON import needs an import attribute in Node's ESM loader
 * (Playwright, tsx) and none in bundlers, and no single spelling suits every loader.
 */
const REGION_NAMES = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
const nameOf = (code: string): string => REGION_NAMES.of(code) ?? code;

export interface Country {
  code: string;
  name: string;
}

/** Every officially assigned code, sorted by English name. */
export const COUNTRIES: readonly Country[] = Object.freeze(
  Object.keys(countries.getAlpha2Codes())
    .map((code) => ({ code, name: nameOf(code) }))
    .sort((a, b) => a.name.localeCompare(b.name, 'en')),
);

const NAMES = new Map(COUNTRIES.map((c) => [c.code, c.name]));

/** True for an assigned ISO 3166-1 alpha-2 code, in any letter case. */
export const isCountryCode = (code: string): boolean => NAMES.has(code.toUpperCase());

/** The English name of a code, or the code itself when it is not assigned. */
export const countryName = (code: string): string => NAMES.get(code.toUpperCase()) ?? code.toUpperCase();
