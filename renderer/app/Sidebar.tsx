import { Link } from '@tanstack/react-router';
import { Waypoints } from 'lucide-react';
import { usePageLinks } from './page-links';
import { sectionMeta } from './sections';
import { keyLabel, MOD } from './shortcuts';

/** The pages, as links (each has an address: it opens in a new browser tab too, with its filters). */
export function Sidebar() {
  const links = usePageLinks();
  return (
    <nav className="sidebar" aria-label="Sections">
      <div className="brand">
        <Waypoints size={18} aria-hidden="true" />
        <span>Northbound</span>
      </div>
      <ul>
        {sectionMeta.map((m, i) => {
          const Icon = m.icon;
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
                <span>{m.label}</span>
                {m.comingSoon ? <span className="nav-soon">soon</span> : null}
              </Link>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
