/**
 * Where the Overview's numbers lead: each page with the matching filter in its address, so the
 * page shows exactly what was counted and Back returns to the Overview. The ZTA and devices pages
 * take their typed searches (app/search.ts); the Alarms page its names `severity` (comma list),
 * `org`, `state` = open|cleared|all and `ack` = unacked|all.
 */
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { ActiveSeverity } from '../../../shared/model/alarms';
import type { AlarmsSearch } from '../../app/search';

export interface AlarmsAddress {
  severity?: ActiveSeverity[];
  org?: string;
  state?: 'open' | 'cleared' | 'all';
  ack?: 'unacked' | 'all';
}

/** The Alarms page's search for what a tile counted (active alarms are the `open` ones). */
export function alarmsSearch(a: AlarmsAddress): Partial<AlarmsSearch> {
  const out: Partial<AlarmsSearch> = { state: a.state ?? 'open' };
  if (a.severity?.length) out.severity = a.severity.join(',');
  if (a.org) out.org = a.org;
  if (a.ack) out.ack = a.ack;
  return out;
}

/** A link to the Alarms page with its filters (the route's typed search: the compiler checks the names). */
export function AlarmsLink({ to, children, className, title, testId }: { to: AlarmsAddress; children: ReactNode; className?: string; title?: string; testId?: string }) {
  return (
    <Link to="/alarms" search={alarmsSearch(to)} className={className} title={title} data-testid={testId}>
      {children}
    </Link>
  );
}
