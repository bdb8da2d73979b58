/**
 * Organizations of the active connection (stored copy, shown offline): a hierarchy tree or a
 * list, with search. The view and the search are in the address (`?view=list&q=…`).
 */
import { getRouteApi } from '@tanstack/react-router';
import { Building2, ListTree, Rows3, Search } from 'lucide-react';
import { useMemo } from 'react';
import type { OrganizationView } from '../../../shared/model/inventory';
import { useDeviceFacets, useInventoryOrganizations } from '../../api/inventory';
import { Loading } from '../../components/QueryState';
import { formatCount } from '../../components/format';
import { shallowEqual, useAddressDraft } from '../../app/useAddressDraft';
import { useDeferredSearch } from '../../components/search';
import { InventoryFreshness } from '../../components/Freshness';
import { NoConnection } from '../../components/NoConnection';
import { storedListState, UnreadableNote } from '../../components/StoredListState';
import { useInventoryProfile } from '../../app/useInventoryProfile';
import { buildOrgTree, orgSearchText, type OrgTree as Tree } from './org-tree';
import { OrgList } from './OrgList';
import { OrgTree } from './OrgTree';

const EMPTY: OrganizationView[] = [];
const route = getRouteApi('/organizations');

/** Depth-first order, so the list reads like the tree. */
function hierarchyOrder(tree: Tree): OrganizationView[] {
  const out: OrganizationView[] = [];
  const walk = (list: OrganizationView[]) =>
    list.forEach((o) => {
      out.push(o);
      walk(tree.children.get(o.name) ?? []);
    });
  walk(tree.roots);
  return out;
}

export function OrganizationsPage() {
  const { profile, signedIn, loading } = useInventoryProfile();
  const orgs = useInventoryOrganizations(profile?.id);
  const navigate = route.useNavigate();
  // The view and the search act at once and are written to the address once input pauses.
  const inAddress = route.useSearch();
  const { draft, setDraft } = useAddressDraft({ view: inAddress.view, q: inAddress.q }, (v) => void navigate({ search: (prev) => ({ ...prev, ...v }), replace: true }), shallowEqual);
  const { view, q: search } = draft;
  const setView = (v: 'tree' | 'list') => setDraft((d) => ({ ...d, view: v }));
  const setSearch = (q: string) => setDraft((d) => ({ ...d, q }));
  // Device counts come from the stored devices: until those were fetched, a count would be a guess.
  const devicesKnown = Boolean(useDeviceFacets(profile?.id).data?.fetchedAt);
  const items = orgs.data?.items ?? EMPTY;
  const tree = useMemo(() => buildOrgTree(items), [items]);
  const ordered = useMemo(() => hierarchyOrder(tree), [tree]);
  // Deferred for the tree too: typing in the search box never waits for either view.
  const { rows: listed, stale, query } = useDeferredSearch(ordered, search, orgSearchText);

  if (loading) {
    return (
      <Loading>Loading…</Loading>
    );
  }
  if (!profile) return <NoConnection what="Organizations" />;

  let body = storedListState(
    orgs,
    'organizations',
    <div className="empty" data-testid="orgs-empty">
      <Building2 size={22} aria-hidden="true" />
      <p>{orgs.data?.fetchedAt ? `${profile.name} has no organizations.` : `The organizations of ${profile.name} were never fetched.`}</p>
      <p className="muted">{orgs.data?.fetchedAt ? 'Use Refresh to fetch them again.' : signedIn ? 'They are fetched now; then they are kept for offline use.' : `Sign in to ${profile.name} to fetch them; they are then kept for offline use.`}</p>
    </div>,
  );
  if (body === undefined) {
    body = view === 'tree' ? <OrgTree tree={tree} query={query} devicesKnown={devicesKnown} /> : <OrgList orgs={listed} devicesKnown={devicesKnown} stale={stale} />;
  }

  return (
    <div className="page page-wide orgs-page">
      <div className="toolbar">
        <h2>
          Organizations {orgs.data?.fetchedAt ? <span className="count">{formatCount(items.length)}</span> : null}
        </h2>
        <div className="toolbar-actions">
          <InventoryFreshness profile={profile} fetchedAt={orgs.data?.fetchedAt} what="organizations" signedIn={signedIn} />
        </div>
      </div>
      {items.length ? (
        <div className="devices-filterbar">
          <div className="search-box">
            <Search size={14} aria-hidden="true" />
            <input type="search" aria-label="Search organizations" placeholder="Search name or plan" value={search} onChange={(e) => setSearch(e.target.value)} spellCheck={false} data-testid="orgs-search" />
          </div>
          <div className="segmented" role="group" aria-label="View">
            <button type="button" aria-pressed={view === 'tree'} className={view === 'tree' ? 'active' : undefined} onClick={() => setView('tree')}>
              <ListTree size={14} aria-hidden="true" />
              Tree
            </button>
            <button type="button" aria-pressed={view === 'list'} className={view === 'list' ? 'active' : undefined} onClick={() => setView('list')}>
              <Rows3 size={14} aria-hidden="true" />
              List
            </button>
          </div>
          {search ? <span className="devices-count">{formatCount(listed.length)} of {formatCount(items.length)}</span> : null}
        </div>
      ) : null}
      <UnreadableNote count={orgs.data?.unreadable} what="organization" />
      {body}
    </div>
  );
}
