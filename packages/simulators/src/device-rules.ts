/**
 * Field rules of a device PUT (MN-42), checked in order; each failure is 400 code 4017 with a
 * description that starts with the field path, so the console can put it under the field.
 */
import countries from 'i18n-iso-countries';
import { CustomError } from './errors';
import type { SimDevice } from './inventory-seed';

export const DEVICE_WRAPPER = 'mgmt.sdwan-device-workflow';
export const DEVICE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,62}$/;
const DECIMAL = /^[-+]?(\d+(\.\d*)?|\.\d+)$/;
const MAX_SITE_ID = 999_999_999;
/** Spec 2.3: `locationInfo.country` is two letters; the node knows the assigned ISO 3166-1 alpha-2 codes. */
const COUNTRY_CODES = new Set(Object.keys(countries.getAlpha2Codes()));
const isCountryCode = (code: string): boolean => COUNTRY_CODES.has(code.toUpperCase());

export const invalidRequest = (description: string): CustomError => new CustomError(400, 4017, 'Invalid request', description);

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);
const show = (v: unknown): string => (v === undefined ? 'nothing' : JSON.stringify(v));

function nonEmpty(record: Record<string, unknown>, field: 'orgName' | 'serialNumber' | 'deviceGroup'): string {
  const v = record[field];
  if (typeof v !== 'string' || v.trim() === '') throw invalidRequest(`${field}: required, a non-empty string (got ${show(v)}).`);
  return v;
}

/**
 * A coordinate as a decimal string, or (issue 8) as a JSON number: real nodes answer the single
 * device GET with numbers and clients PUT that body back unchanged. Stored as a string.
 */
function decimal(loc: Record<string, unknown>, field: 'latitude' | 'longitude', limit: number): string {
  const v = loc[field];
  if (typeof v === 'number' && Number.isFinite(v) && Math.abs(v) <= limit) return String(v);
  if (typeof v !== 'string' || !DECIMAL.test(v) || Math.abs(Number(v)) > limit) {
    throw invalidRequest(`locationInfo.${field}: ${show(v)} is not a decimal number from -${limit} to ${limit} (a JSON number or a decimal string).`);
  }
  return v;
}

/** The record of a PUT body for the device named in the path; site ID without leading zeros, country upper case. */
export function parseDevice(body: unknown, pathName: string): SimDevice {
  const record = isObject(body) ? body[DEVICE_WRAPPER] : undefined;
  if (!isObject(record)) throw invalidRequest(`${DEVICE_WRAPPER}: the body must be an object with this key holding the device record.`);
  const name = record.deviceName;
  if (name !== pathName) throw invalidRequest(`deviceName: ${show(name)} does not match the device name ${pathName} in the path.`);
  if (!DEVICE_NAME_PATTERN.test(pathName)) {
    throw invalidRequest(`deviceName: "${pathName}" is not a valid device name; use 1 to 63 letters, digits, dots, dashes and underscores, starting with a letter or digit.`);
  }
  // A string of digits (record 2.3, the list) or a whole JSON number (the single GET answers one, issue 8).
  const rawSite = record.siteId;
  const siteId = typeof rawSite === 'number' && Number.isSafeInteger(rawSite) ? String(rawSite) : rawSite;
  if (typeof siteId !== 'string' || !/^\d{1,9}$/.test(siteId) || Number(siteId) < 1 || Number(siteId) > MAX_SITE_ID) {
    throw invalidRequest(`siteId: ${show(rawSite)} is not a whole number from 1 to ${MAX_SITE_ID} (a JSON number or a string of digits).`);
  }
  const orgName = nonEmpty(record, 'orgName');
  const serialNumber = nonEmpty(record, 'serialNumber');
  const deviceGroup = nonEmpty(record, 'deviceGroup');
  const loc = record.locationInfo;
  if (!isObject(loc)) throw invalidRequest('locationInfo: required, an object with country, longitude and latitude.');
  const country = loc.country;
  if (typeof country !== 'string' || !/^[A-Za-z]{2}$/.test(country) || !isCountryCode(country)) {
    throw invalidRequest(`locationInfo.country: ${show(country)} is not an ISO 3166-1 alpha-2 country code.`);
  }
  const latitude = decimal(loc, 'latitude', 90);
  const longitude = decimal(loc, 'longitude', 180);
  return {
    deviceName: pathName,
    siteId: String(Number(siteId)),
    orgName,
    serialNumber,
    deviceGroup,
    locationInfo: { country: country.toUpperCase(), longitude, latitude },
  };
}

export function sameDevice(a: SimDevice, b: SimDevice): boolean {
  return (
    a.deviceName === b.deviceName &&
    a.siteId === b.siteId &&
    a.orgName === b.orgName &&
    a.serialNumber === b.serialNumber &&
    a.deviceGroup === b.deviceGroup &&
    a.locationInfo.country === b.locationInfo.country &&
    a.locationInfo.longitude === b.locationInfo.longitude &&
    a.locationInfo.latitude === b.locationInfo.latitude
  );
}
