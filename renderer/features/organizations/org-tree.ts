/**
 * The organization hierarchy as a tree (children by parent name, sorted), and the nodes a tree
 * view shows: every root and the children of expanded nodes; while searching, only the matches
 * and their ancestors (the page opens those ancestors when the search changes).
 */
import type { OrganizationView } from '../../../shared/model/inventory';

export interface OrgTree {
  roots: OrganizationView[];
  children: Map<string, OrganizationView[]>;
  byName: Map<string, OrganizationView>;
}

const byName = (a: OrganizationView, b: OrganizationView) => a.name.localeCompare(b.name, 'en', { numeric: true });

export function buildOrgTree(orgs: readonly OrganizationView[]): OrgTree {
  const names = new Map(orgs.map((o) => [o.name, o]));
  const children = new Map<string, OrganizationView[]>();
  const roots: OrganizationView[] = [];
  for (const o of orgs) {
    if (o.parent && names.has(o.parent) && o.parent !== o.name) {
      const list = children.get(o.parent);
      if (list) list.push(o);
      else children.set(o.parent, [o]);
    } else roots.push(o);
  }
  roots.sort(byName);
  for (const list of children.values()) list.sort(byName);
  return { roots, children, byName: names };
}

/** `q` lower case: the name or the plan in force contains it. */
export const matchesOrg = (o: OrganizationView, q: string): boolean => o.name.toLowerCase().includes(q) || (o.effectivePlan ?? '').toLowerCase().includes(q);
/** What the list's search looks in (the same as matchesOrg): name and plan in force. */
export const orgSearchText = (o: OrganizationView): string => `${o.name}\u0000${o.effectivePlan ?? ''}`;

/** Names of the matches and all their ancestors, or undefined when not searching. */
export function searchTree(tree: OrgTree, query: string): Set<string> | undefined {
  const q = query.trim().toLowerCase();
  if (!q) return undefined;
  const keep = new Set<string>();
  for (const o of tree.byName.values()) {
    if (!matchesOrg(o, q)) continue;
    let cur: OrganizationView | undefined = o;
    while (cur && !keep.has(cur.name)) {
      keep.add(cur.name);
      cur = cur.parent ? tree.byName.get(cur.parent) : undefined;
    }
  }
  return keep;
}

export interface VisibleNode {
  org: OrganizationView;
  level: number;
  setSize: number;
  posInSet: number;
  hasChildren: boolean;
  expanded: boolean;
  parent: string | null;
}

/** The nodes in view, depth first (the order arrow keys move through). */
export function visibleNodes(tree: OrgTree, expanded: ReadonlySet<string>, keep: Set<string> | undefined): VisibleNode[] {
  const out: VisibleNode[] = [];
  const walk = (list: OrganizationView[], level: number, parent: string | null) => {
    const shown = keep ? list.filter((o) => keep.has(o.name)) : list;
    shown.forEach((org, i) => {
      const kids = tree.children.get(org.name) ?? [];
      const visibleKids = keep ? kids.filter((k) => keep.has(k.name)) : kids;
      const open = visibleKids.length > 0 && expanded.has(org.name);
      out.push({ org, level, setSize: shown.length, posInSet: i + 1, hasChildren: visibleKids.length > 0, expanded: open, parent });
      if (open) walk(kids, level + 1, org.name);
    });
  };
  walk(tree.roots, 1, null);
  return out;
}

/** The plan in force, said the way the tree and the list show it. */
export function planText(o: OrganizationView): string {
  if (!o.effectivePlan) return 'no plan';
  return o.inheritedFrom ? `${o.effectivePlan} · inherited from ${o.inheritedFrom}` : o.effectivePlan;
}
