/** The address's search parameters (renderer/app/search.ts): plain strings, and every bad value falls back. */
import { describe, expect, it } from 'vitest';
import { connectionsSearch, devicesDefaults, devicesSearch, organizationsSearch, parseSearch, rootSearch, stringifySearch } from '../../../renderer/app/search';

describe('address search parameters', () => {
  it('reads values as the text typed: numbers, booleans and JSON stay strings; the first of a repeated key wins', () => {
    expect(parseSearch('?q=1999&org=true&group=%7B%22a%22%3A1%7D&q=other')).toEqual({ q: '1999', org: 'true', group: '{"a":1}' });
    expect(devicesSearch.parse(parseSearch('q=1999')).q).toBe('1999');
  });

  it('writes strings only, leaving empty ones out', () => {
    expect(stringifySearch({ q: 'branch berlin', org: '', device: undefined, status: 'failed' })).toBe('?q=branch+berlin&status=failed');
    expect(stringifySearch({ q: '' })).toBe('');
    expect(parseSearch(stringifySearch({ org: 'Acme & Co', q: 'a=b' }))).toEqual({ org: 'Acme & Co', q: 'a=b' });
  });

  it('falls back to the default for anything missing, misspelt or unknown', () => {
    expect(devicesSearch.parse({})).toEqual(devicesDefaults);
    expect(devicesSearch.parse({ status: 'bogus', reach: 'far', sync: 7, sort: 'nope', order: 'sideways', q: ['a', 'b'], device: null })).toEqual(devicesDefaults);
    expect(devicesSearch.parse({ status: 'failed', reach: 'unreachable', sync: 'out-of-sync', sort: 'siteId', order: 'desc' })).toMatchObject({ status: 'failed', reach: 'unreachable', sync: 'out-of-sync', sort: 'siteId', order: 'desc' });
    expect(connectionsSearch.parse({ tab: 'secrets' })).toEqual({ tab: 'profiles' });
    expect(organizationsSearch.parse({ view: 'grid' })).toEqual({ view: 'tree', q: '' });
    expect(rootSearch.parse({ connection: '' })).toEqual({ connection: undefined });
    expect(rootSearch.parse({ connection: 'a-profile-id' })).toEqual({ connection: 'a-profile-id' });
  });
});
