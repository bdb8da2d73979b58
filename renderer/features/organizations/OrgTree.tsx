/**
 * The organization hierarchy as an ARIA tree: Up/Down move through the visible nodes, Right
 * opens a node (or goes to its first child), Left closes it (or goes to its parent), Home/End,
 * Enter or Space toggles. One node is in the Tab order (roving tabindex). Each node shows its
 * plan in force, and where an inherited plan comes from.
 *
 * Virtualized (TanStack Virtual): the visible nodes are one flat list of treeitems carrying their
 * level, set size and position (the ARIA pattern without nested groups), and only those in view
 * are in the DOM, so a search that opens the way to hundreds of matches renders a screenful.
 */
import clsx from 'clsx';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { OrganizationView } from '../../../shared/model/inventory';
import { formatCount } from '../../components/format';
import { searchTree, visibleNodes, type OrgTree as Tree, type VisibleNode } from './org-tree';

const NODE_HEIGHT = 32;
const PAD = 6;

function ancestorsOfMatches(tree: Tree, keep: Set<string> | undefined): Set<string> {
  if (!keep) return new Set(tree.roots.map((r) => r.name));
  return new Set([...keep].filter((n) => (tree.children.get(n) ?? []).some((k) => keep.has(k.name))));
}

export function OrgTree({ tree, query, devicesKnown = true }: { tree: Tree; query: string; devicesKnown?: boolean }) {
  const keep = useMemo(() => searchTree(tree, query), [tree, query]);
  const [expanded, setExpanded] = useState<Set<string>>(() => ancestorsOfMatches(tree, keep));
  const [shownFor, setShownFor] = useState({ tree, keep });
  if (shownFor.tree !== tree || shownFor.keep !== keep) {
    // A new search (or list) opens the way to every match.
    setShownFor({ tree, keep });
    setExpanded(keep ? ancestorsOfMatches(tree, keep) : shownFor.keep ? ancestorsOfMatches(tree, undefined) : expanded);
  }
  const nodes = useMemo(() => visibleNodes(tree, expanded, keep), [tree, expanded, keep]);
  const [focused, setFocused] = useState<string | undefined>();
  const focusName = nodes.some((n) => n.org.name === focused) ? focused : nodes[0]?.org.name;
  const scrollRef = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  // No React Compiler here: reading the virtualizer during render is how TanStack Virtual works.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: nodes.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => NODE_HEIGHT,
    paddingStart: PAD,
    paddingEnd: PAD,
    overscan: 10,
    initialRect: { width: 800, height: 600 },
  });

  // The node moved to gets the focus once it is rendered (it may first have to scroll into view).
  useEffect(() => {
    if (!moved.current || !focusName) return;
    const items = scrollRef.current?.querySelectorAll<HTMLElement>('[data-org]') ?? [];
    for (const el of items) {
      if (el.dataset.org !== focusName) continue;
      moved.current = false;
      el.focus();
    }
  });

  const toggle = (name: string, open?: boolean) =>
    setExpanded((old) => {
      const next = new Set(old);
      if (open ?? !next.has(name)) next.add(name);
      else next.delete(name);
      return next;
    });
  const focusOn = (name: string | undefined) => {
    if (!name) return;
    moved.current = true;
    setFocused(name);
    const at = nodes.findIndex((n) => n.org.name === name);
    if (at >= 0) virtualizer.scrollToIndex(at, { align: 'auto' });
  };

  const onKeyDown = (e: KeyboardEvent<HTMLUListElement>) => {
    const i = nodes.findIndex((n) => n.org.name === focusName);
    const node = nodes[i];
    if (!node) return;
    const handled = () => {
      e.preventDefault();
      e.stopPropagation();
    };
    switch (e.key) {
      case 'ArrowDown':
        handled();
        focusOn(nodes[Math.min(nodes.length - 1, i + 1)]?.org.name);
        break;
      case 'ArrowUp':
        handled();
        focusOn(nodes[Math.max(0, i - 1)]?.org.name);
        break;
      case 'Home':
        handled();
        focusOn(nodes[0]?.org.name);
        break;
      case 'End':
        handled();
        focusOn(nodes[nodes.length - 1]?.org.name);
        break;
      case 'ArrowRight':
        handled();
        if (node.hasChildren && !node.expanded) toggle(node.org.name, true);
        else if (node.expanded) focusOn(nodes[i + 1]?.org.name);
        break;
      case 'ArrowLeft':
        handled();
        if (node.expanded) toggle(node.org.name, false);
        else focusOn(node.parent ?? undefined);
        break;
      case 'Enter':
      case ' ':
        handled();
        if (node.hasChildren) toggle(node.org.name);
        break;
    }
  };

  if (nodes.length === 0) return <p className="empty">No organization matches “{query}”.</p>;
  return (
    <div className="org-tree-scroll" ref={scrollRef}>
      <ul className="org-tree" role="tree" aria-label="Organization hierarchy" onKeyDown={onKeyDown} data-testid="org-tree" style={{ height: virtualizer.getTotalSize() }}>
        {virtualizer.getVirtualItems().map((item) => {
          const n = nodes[item.index]!;
          const name = n.org.name;
          return (
            <li
              key={name}
              role="treeitem"
              aria-level={n.level}
              aria-setsize={n.setSize}
              aria-posinset={n.posInSet}
              aria-expanded={n.hasChildren ? n.expanded : undefined}
              aria-selected={name === focusName}
              tabIndex={name === focusName ? 0 : -1}
              data-org={name}
              data-testid={`org-node-${name}`}
              style={{ height: NODE_HEIGHT, transform: `translateY(${item.start}px)` }}
              onFocus={(e) => {
                if (e.target === e.currentTarget && focused !== name) setFocused(name);
              }}
              onClick={() => {
                setFocused(name);
                if (n.hasChildren) toggle(name);
              }}
            >
              <NodeRow node={n} devicesKnown={devicesKnown} />
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function NodeRow({ node, devicesKnown }: { node: VisibleNode; devicesKnown: boolean }) {
  const o: OrganizationView = node.org;
  return (
    <div className="org-node" style={{ paddingLeft: `${(node.level - 1) * 20 + 6}px` }}>
      <span className="org-twisty" aria-hidden="true">
        {node.hasChildren ? node.expanded ? <ChevronDown size={14} /> : <ChevronRight size={14} /> : null}
      </span>
      <span className="org-name">{o.name}</span>
      {o.effectivePlan ? (
        <span className={clsx('chip', o.inheritedFrom ? 'plan-inherited' : 'chip-accent')} data-testid="org-plan">
          {o.effectivePlan}
          {o.inheritedFrom ? <span className="plan-from"> · inherited from {o.inheritedFrom}</span> : null}
        </span>
      ) : (
        <span className="chip" data-testid="org-plan">
          no plan
        </span>
      )}
      <span className="org-meta muted">
        {devicesKnown ? `${formatCount(o.devices)} ${o.devices === 1 ? 'device' : 'devices'}` : 'devices not fetched'}
        {o.children ? ` · ${formatCount(o.children)} ${o.children === 1 ? 'child' : 'children'}` : ''}
      </span>
    </div>
  );
}
