import { describe, expect, it } from 'vitest';
import { isOrganizationList } from '../../../electron/mgmt/node-proof';

describe('isOrganizationList: the organization list as a management node answers it (MN-35)', () => {
  it('accepts the shapes of real nodes', () => {
    expect(isOrganizationList({ totalCount: 5, organizations: [{ uuid: 'u', name: 'Tenant-1' }] })).toBe(true);
    expect(isOrganizationList({ totalCount: '0', organizations: [] })).toBe(true);
    expect(isOrganizationList({ 'mgmt.organizations': [{ name: 'x' }] })).toBe(true);
    expect(isOrganizationList({ totalCount: 12 })).toBe(true); // a page past the end
  });

  it('refuses anything else', () => {
    for (const body of [undefined, null, [], 'orgs', { message: 'hello' }, { organizations: 'x' }, { organizations: [1, 2] }, { totalCount: -1 }, { totalCount: 'many' }, { access_token: 't' }]) {
      expect(isOrganizationList(body), JSON.stringify(body)).toBe(false);
    }
  });
});
