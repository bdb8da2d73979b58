import { Bell, Building2, Cable, Plug, Router, Settings, ShieldCheck, type LucideIcon } from 'lucide-react';
import type { Section } from '../stores/ui';

export interface SectionMeta {
  id: Section;
  label: string;
  icon: LucideIcon;
  /** What the placeholder says until the section is built. */
  comingSoon?: { summary: string; bullets: string[] };
}

export const sectionMeta: SectionMeta[] = [
  { id: 'connections', label: 'Connections', icon: Cable },
  { id: 'devices', label: 'Devices', icon: Router },
  { id: 'organizations', label: 'Organizations', icon: Building2 },
  {
    id: 'alarms',
    label: 'Alarms',
    icon: Bell,
    comingSoon: {
      summary: 'Live alarms from the node over AMQP, with REST catch-up after a disconnect.',
      bullets: ['Deduplicated alarm stream with severity and source', 'Acknowledge and clear', 'Filters that stay put while new alarms arrive'],
    },
  },
  {
    id: 'zta',
    label: 'ZTA',
    icon: ShieldCheck,
    comingSoon: {
      summary: 'Zero-trust access: endpoint risk scores from the EDR connectors, published to the node.',
      bullets: ['Risk score and band per host, with history', 'Why a score changed (detections, exposure)', 'What was published to the node, and when'],
    },
  },
  { id: 'connectors', label: 'Connectors', icon: Plug },
  { id: 'settings', label: 'Settings', icon: Settings },
];
