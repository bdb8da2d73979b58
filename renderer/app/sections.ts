import { Bell, Building2, Cable, History, LayoutDashboard, Plug, Router, Settings, ShieldCheck, type LucideIcon } from 'lucide-react';

/** The pages, in sidebar (and Ctrl+1…9) order; each is a route at `/<id>` (router.tsx). */
export const sections = ['overview', 'connections', 'devices', 'organizations', 'alarms', 'zta', 'connectors', 'settings', 'activity'] as const;
export type Section = (typeof sections)[number];
export type SectionPath = `/${Section}`;

export interface SectionMeta {
  id: Section;
  path: SectionPath;
  label: string;
  icon: LucideIcon;
}

export const sectionMeta: SectionMeta[] = [
  { id: 'overview', path: '/overview', label: 'Overview', icon: LayoutDashboard },
  { id: 'connections', path: '/connections', label: 'Connections', icon: Cable },
  { id: 'devices', path: '/devices', label: 'Devices', icon: Router },
  { id: 'organizations', path: '/organizations', label: 'Organizations', icon: Building2 },
  { id: 'alarms', path: '/alarms', label: 'Alarms', icon: Bell },
  { id: 'zta', path: '/zta', label: 'ZTA', icon: ShieldCheck },
  { id: 'connectors', path: '/connectors', label: 'Connectors', icon: Plug },
  { id: 'settings', path: '/settings', label: 'Settings', icon: Settings },
  { id: 'activity', path: '/activity', label: 'Activity', icon: History },
];

/** The section a path shows (the first segment), if any. */
export const sectionOfPath = (pathname: string): SectionMeta | undefined => sectionMeta.find((m) => pathname === m.path || pathname.startsWith(`${m.path}/`));
