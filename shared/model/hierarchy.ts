/**
 * The organization tree as the console shows it (spec 1, MN-46): depth, the plan in force and
 * the ancestor it comes from, children and device counts, computed from the stored parent links.
 * Linear in the number of organizations (each one is resolved once); parent links that loop or
 * name an unknown organization never hang: the link that closes a loop, or points nowhere, is
 * read as "no parent".
 */
import type { OrganizationView } from './inventory';

export interface StoredOrganization {
  uuid: string;
  name: string;
  /** Parent name; null for a root. */
  parent: string | null;
  /** The organization's own plan; null = inherited (MN-46). */
  subscriptionPlan: string | null;
}

interface Resolved {
  depth: number;
  effectivePlan: string | null;
  inheritedFrom: string | null;
}

function resolveAll(orgs: readonly StoredOrganization[], byName: ReadonlyMap<string, StoredOrganization>): Map<string, Resolved> {
  const memo = new Map<string, Resolved>();
  for (const start of orgs) {
    if (memo.has(start.name)) continue;
    // Walk up until a resolved ancestor, a root, an unknown parent or an organization already on this walk (a loop).
    const path: StoredOrganization[] = [];
    const onPath = new Set<string>();
    let base: { info: Resolved; name: string } | undefined;
    let cur: StoredOrganization | undefined = start;
    while (cur) {
      const known = memo.get(cur.name);
      if (known) {
        base = { info: known, name: cur.name };
        break;
      }
      if (onPath.has(cur.name)) break;
      path.push(cur);
      onPath.add(cur.name);
      cur = cur.parent === null ? undefined : byName.get(cur.parent);
    }
    // Resolve from the top of the walk down.
    for (let i = path.length - 1; i >= 0; i -= 1) {
      const o = path[i] as StoredOrganization;
      let info: Resolved;
      if (!base) {
        info = { depth: 0, effectivePlan: o.subscriptionPlan, inheritedFrom: null };
      } else if (o.subscriptionPlan !== null && o.subscriptionPlan !== base.info.effectivePlan) {
        info = { depth: base.info.depth + 1, effectivePlan: o.subscriptionPlan, inheritedFrom: null };
      } else {
        // No plan of its own, or (real nodes send the plan in force on every organization, MN-52)
        // the parent's plan: it comes from where the parent's comes from.
        const plan = base.info.effectivePlan;
        info = { depth: base.info.depth + 1, effectivePlan: plan, inheritedFrom: plan === null ? null : (base.info.inheritedFrom ?? base.name) };
      }
      memo.set(o.name, info);
      base = { info, name: o.name };
    }
  }
  return memo;
}

/**
 * Every organization with its place in the tree, in tree order (roots by name, each followed by
 * its subtree, children by name); organizations only reachable through a loop come last.
 * `devices` counts the organization's own devices.
 */
export function organizationViews(orgs: readonly StoredOrganization[], devicesByOrg: ReadonlyMap<string, number>): OrganizationView[] {
  const byName = new Map<string, StoredOrganization>();
  for (const o of orgs) byName.set(o.name, o);
  const unique = [...byName.values()];
  const resolved = resolveAll(unique, byName);

  const kids = new Map<string, StoredOrganization[]>();
  const roots: StoredOrganization[] = [];
  for (const o of unique) {
    const info = resolved.get(o.name) as Resolved;
    if (info.depth === 0) roots.push(o);
    if (o.parent !== null && o.parent !== o.name && byName.has(o.parent)) {
      const list = kids.get(o.parent) ?? [];
      list.push(o);
      kids.set(o.parent, list);
    }
  }
  const byNameOrder = (a: StoredOrganization, b: StoredOrganization) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
  const view = (o: StoredOrganization): OrganizationView => ({
    uuid: o.uuid,
    name: o.name,
    parent: o.parent,
    subscriptionPlan: o.subscriptionPlan,
    ...(resolved.get(o.name) as Resolved),
    children: kids.get(o.name)?.length ?? 0,
    devices: devicesByOrg.get(o.name) ?? 0,
  });

  const out: OrganizationView[] = [];
  const emitted = new Set<string>();
  const stack = roots.sort(byNameOrder).reverse();
  const drain = () => {
    while (stack.length > 0) {
      const o = stack.pop() as StoredOrganization;
      if (emitted.has(o.name)) continue;
      emitted.add(o.name);
      out.push(view(o));
      const children = (kids.get(o.name) ?? []).filter((c) => !emitted.has(c.name)).sort(byNameOrder);
      for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i] as StoredOrganization);
    }
  };
  drain();
  for (const o of unique.slice().sort(byNameOrder)) {
    if (emitted.has(o.name)) continue;
    stack.push(o);
    drain();
  }
  return out;
}
