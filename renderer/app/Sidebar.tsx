import { Link } from '@tanstack/react-router';
import { PanelLeftClose, PanelLeftOpen, Waypoints } from 'lucide-react';
import { useOverviewBadges } from '../api/overview';
import { useProfiles, useSessions } from '../api/connections';
import { formatCount } from '../components/format';
import { usePageLinks } from './page-links';
import { sectionMeta, type Section } from './sections';
import { keyLabel, MOD, SIDEBAR_KEY } from './shortcuts';
import { toggleSidebar } from './sidebar';
import { useActiveProfile } from './useActiveProfile';

interface Badge {
  count: number;
  /** What the number counts, for screen readers and the hover. */
  what: string;
}

/**
 * The sidebar's badges (issue 13): unacknowledged critical alarms of the chosen connection on
 * Alarms, High Risk hosts on ZTA. A number that is not known, or 0, shows no badge.
 */
function useBadges(): Partial<Record<Section, Badge>> {
  const profiles = useProfiles();
  const sessions = useSessions();
  const profile = useActiveProfile(profiles.data, sessions.data);
  const badges = useOverviewBadges(profile?.id, profiles.data !== undefined).data;
  const out: Partial<Record<Section, Badge>> = {};
  const critical = badges?.criticalUnacknowledged;
  if (critical) out.alarms = { count: critical, what: critical === 1 ? 'unacknowledged critical alarm' : 'unacknowledged critical alarms' };
  const high = badges?.highRisk;
  if (high) out.zta = { count: high, what: high === 1 ? 'host in High Risk' : 'hosts in High Risk' };
  return out;
}

/**
 * The pages, as links (each has an address: it opens in a new browser tab too, with its filters).
 * Collapsed, the links show their icons only: the page's name is their hover and what a screen
 * reader says, a badge sits on the icon.
 */
export function Sidebar({ collapsed }: { collapsed: boolean }) {
  const links = usePageLinks();
  const badges = useBadges();
  const toggle = `${collapsed ? 'Expand' : 'Collapse'} the sidebar (${keyLabel([MOD, SIDEBAR_KEY])})`;
  return (
    <nav className="sidebar" aria-label="Sections" data-collapsed={collapsed}>
      <div className="brand">
        <Waypoints size={18} aria-hidden="true" />
        <span className="brand-name">Northbound</span>
        <button type="button" className="icon-button sidebar-toggle" onClick={toggleSidebar} aria-expanded={!collapsed} aria-controls="sidebar-sections" aria-label={collapsed ? 'Expand the sidebar' : 'Collapse the sidebar'} title={toggle} data-testid="sidebar-toggle">
          {collapsed ? <PanelLeftOpen size={16} aria-hidden="true" /> : <PanelLeftClose size={16} aria-hidden="true" />}
        </button>
      </div>
      <ul id="sidebar-sections">
        {sectionMeta.map((m, i) => {
          const Icon = m.icon;
          const badge = badges[m.id];
          return (
            <li key={m.id}>
              <Link
                to={links[m.id].to}
                search={links[m.id].search}
                className="nav-item"
                activeOptions={{ includeSearch: false }}
                activeProps={{ className: 'active' }}
                title={`${m.label} (${keyLabel([MOD, String(i + 1)])})`}
              >
                <Icon size={16} aria-hidden="true" />
                <span className="nav-label">{m.label}</span>
                {badge ? (
                  <span className={`nav-badge nav-badge-${m.id}`} title={`${formatCount(badge.count)} ${badge.what}`} data-testid={`nav-badge-${m.id}`}>
                    <span aria-hidden="true">{formatCount(badge.count)}</span>
                    <span className="sr-only">
                      , {formatCount(badge.count)} {badge.what}
                    </span>
                  </span>
                ) : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
