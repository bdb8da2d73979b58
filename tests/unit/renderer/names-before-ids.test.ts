/**
 * Issue 22.7's pure pieces: long IDs shortened with the whole one kept for the title, customers
 * named by their connectors where the snapshot says who they are, the host table's columns fitted
 * to its width by priority (hostname, score and band always stay), the columns a view's hosts
 * share left out, and the sidebar's collapsed state (the operator's choice over the window's width).
 */
import { describe, expect, it } from 'vitest';
import type { ZtaSnapshot } from '../../../shared/model/zta';
import { nameOrId, shortId } from '../../../renderer/components/ids';
import { connectorLabel, customerNames } from '../../../renderer/features/zta/customer-names';
import { distribution } from '../../../renderer/features/zta/distribution';
import { attributePresence, fitColumns, HOST_COLUMNS, sharedValues } from '../../../renderer/features/zta/host-columns';
import { visibleColumns } from '../../../renderer/features/zta/ZtaDashboard';
import { structuralMask, ztaIndexOf } from '../../../renderer/features/zta/zta-index';
import { sidebarCollapsed, toggledSidebar } from '../../../renderer/app/sidebar';
import { ztaSnapshot } from './support/zta-data';

const GUID = 'b0621bc9-49e9-42e7-9c1e-3a9d0f1c2b44';

describe('IDs shortened', () => {
  it('keeps the first 8 characters and an ellipsis, and short IDs whole', () => {
    expect(shortId(GUID)).toBe('b0621bc9…');
    expect(shortId('6a591bd12cdad84e90f1a2b3c4d5e6f7')).toBe('6a591bd1…');
    expect(shortId('  6a591bd12cdad84e90f1  ')).toBe('6a591bd1…');
    expect(shortId('cid-12')).toBe('cid-12');
    expect(shortId('123456789012')).toBe('123456789012');
    expect(shortId('1234567890123')).toBe('12345678…');
  });

  it('names where a name is known, the whole ID in the title either way', () => {
    expect(nameOrId(GUID, 'Contoso')).toEqual({ text: 'Contoso', title: `Contoso (${GUID})` });
    expect(nameOrId(GUID, undefined)).toEqual({ text: 'b0621bc9…', title: GUID });
  });
});

/** A snapshot of `hosts` rows: [connector index, customer index] each. */
function snapshot(connectors: Array<{ name: string; vendor: 'falcon' | 'defender'; tenantId: string }>, customers: string[], hosts: Array<[number, number]>): ZtaSnapshot {
  const s = ztaSnapshot({ hosts: hosts.length, seed: 3 });
  return {
    ...s,
    connectors: connectors.map((c, k) => ({ ...s.connectors[0]!, connectorId: `c${k}`, ...c })),
    customers,
    rows: { ...s.rows, connector: hosts.map((h) => h[0]), customer: hosts.map((h) => h[1]) },
  };
}

describe('customer names', () => {
  it('names a customer by the connector its hosts come from, when that connector carries no other customer', () => {
    const s = snapshot(
      [
        { name: 'Acme (Falcon)', vendor: 'falcon', tenantId: '0123456789abcdef0123456789abcdef' },
        { name: 'Acme (Defender)', vendor: 'defender', tenantId: GUID },
      ],
      ['0123456789abcdef0123456789abcdef', GUID],
      [
        [0, 0],
        [1, 1],
        [1, 1],
      ],
    );
    expect(customerNames(s)).toEqual(['Acme (Falcon)', 'Acme (Defender)']);
  });

  it('a parent connector with several customers names only its own tenant (its CID with or without the checksum); the children stay unnamed', () => {
    const parent = 'ABCDEF0123456789ABCDEF0123456789-1F';
    const own = 'abcdef0123456789abcdef0123456789';
    const s = snapshot(
      [{ name: 'MSSP parent', vendor: 'falcon', tenantId: parent }],
      [own, '11111111111111111111111111111111', '22222222222222222222222222222222'],
      [
        [0, 0],
        [0, 1],
        [0, 2],
      ],
    );
    expect(customerNames(s)).toEqual(['MSSP parent', undefined, undefined]);
    // Synthetic data: three customers per connector, none the connector's tenant: no names.
    expect(customerNames(ztaSnapshot({ hosts: 200 })).every((n) => n === undefined)).toBe(true);
  });

  it('a connector named by default is named with its tenant ID shortened; a customer with no host is unnamed', () => {
    expect(connectorLabel({ name: `Microsoft Defender · ${GUID}`, tenantId: GUID })).toBe('Microsoft Defender · b0621bc9…');
    expect(connectorLabel({ name: 'Contoso EU', tenantId: GUID })).toBe('Contoso EU');
    const s = snapshot([{ name: `Microsoft Defender · ${GUID}`, vendor: 'defender', tenantId: GUID }], [GUID, 'orphan'], [[0, 0]]);
    expect(customerNames(s)).toEqual(['Microsoft Defender · b0621bc9…', undefined]);
  });

  it('labels the per-customer bars by name, else by the shortened ID, the whole in the title', () => {
    const s = snapshot(
      [
        { name: 'Acme', vendor: 'defender', tenantId: GUID },
        { name: 'Parent', vendor: 'falcon', tenantId: 'p' },
      ],
      [GUID, 'f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0', 'e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0'],
      [
        [0, 0],
        [1, 1],
        [1, 1],
        [1, 2],
      ],
    );
    const d = distribution(s, Int32Array.from([0, 1, 2, 3]), 'customer', customerNames(s));
    expect(d.groups.map((g) => [g.label, g.title])).toEqual([
      ['f0f0f0f0…', 'f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0f0'],
      ['Acme', `Acme (${GUID})`],
      ['e0e0e0e0…', 'e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0e0'],
    ]);
  });
});

describe('host table columns', () => {
  const all = HOST_COLUMNS.filter((c) => ['hostname', 'customer', 'hostId', 'vendor', 'platform', 'osAssessment', 'sensorAssessment', 'overallAssessment', 'score', 'band', 'lastSeen'].includes(c.id));
  const ids = (cs: readonly { id: string }[]) => cs.map((c) => c.id);
  const sum = all.reduce((t, c) => t + c.min, 0);

  it('names come before IDs', () => {
    expect(ids(HOST_COLUMNS).slice(0, 3)).toEqual(['hostname', 'customer', 'hostId']);
  });

  it('keeps every column where they fit (and before the width is measured)', () => {
    expect(ids(fitColumns(all, sum).columns)).toEqual(ids(all));
    expect(ids(fitColumns(all, 0).columns)).toEqual(ids(all));
    expect(fitColumns(all, sum).min).toBe(sum);
  });

  it('lets the host ID go first, then vendor and platform, and never the hostname, score or band', () => {
    const minus = (...gone: string[]) => ids(all).filter((id) => !gone.includes(id));
    expect(ids(fitColumns(all, sum - 1).columns)).toEqual(minus('hostId'));
    const noId = sum - all.find((c) => c.id === 'hostId')!.min;
    expect(ids(fitColumns(all, noId - 1).columns)).toEqual(minus('hostId', 'vendor'));
    const narrowest = fitColumns(all, 10);
    expect(ids(narrowest.columns)).toEqual(['hostname', 'score', 'band']);
    expect(narrowest.min).toBe(narrowest.columns.reduce((t, c) => t + c.min, 0));
    for (let w = 300; w <= sum; w += 37) {
      const f = fitColumns(all, w);
      expect(f.min <= w || ids(f.columns).join() === 'hostname,score,band', `at ${w} px`).toBe(true);
    }
  });

  it('over one vendor’s or one customer’s hosts leaves out what every row shares, and Defender’s words are not repeated', () => {
    const s = ztaSnapshot({ hosts: 600, seed: 5 });
    const index = ztaIndexOf(s);
    const defenderOnly = structuralMask(index, { vendor: 'defender' });
    const shared = sharedValues(s, defenderOnly);
    expect(shared).toEqual({ customer: false, platform: false, vendor: 'defender' });
    const cols = visibleColumns(attributePresence(s, defenderOnly), { vendor: 'defender' }, shared);
    for (const c of ['avStatus', 'cves', 'customer', 'platform'] as const) expect(cols).toContain(c);
    for (const c of ['riskLevel', 'exposure', 'health', 'vendor', 'sensor'] as const) expect(cols).not.toContain(c);
    expect(HOST_COLUMNS.filter((c) => c.byVendor?.defender).map((c) => c.byVendor!.defender!.header)).toEqual(['Exposure', 'Health', 'Risk level']);
    // A Defender connector chosen is a Defender view too.
    const tenant = structuralMask(index, { connector: 'c-defender' });
    expect(visibleColumns(attributePresence(s, tenant), { connector: 'c-defender' }, sharedValues(s, tenant))).toEqual(cols);

    const one = structuralMask(index, { customer: 'cid-1' });
    expect(sharedValues(s, one)).toEqual({ customer: true, platform: false, vendor: 'falcon' });
    const mixed = sharedValues(s, structuralMask(index, {}));
    expect(mixed).toEqual({ customer: false, platform: false, vendor: undefined });
    expect(visibleColumns(new Set(), {}, mixed)).toContain('vendor');
    expect(sharedValues(s, new Uint8Array(600))).toEqual({ customer: false, platform: false, vendor: undefined });
  });
});

describe('sidebar', () => {
  it('collapses in a narrow window until the operator chooses, and a choice wins either way', () => {
    expect(sidebarCollapsed('auto', true)).toBe(true);
    expect(sidebarCollapsed('auto', false)).toBe(false);
    expect(sidebarCollapsed('expanded', true)).toBe(false);
    expect(sidebarCollapsed('collapsed', false)).toBe(true);
    expect(toggledSidebar('auto', true)).toBe('expanded');
    expect(toggledSidebar('auto', false)).toBe('collapsed');
    expect(toggledSidebar('collapsed', true)).toBe('expanded');
    expect(toggledSidebar('expanded', false)).toBe('collapsed');
  });
});
