import clsx from 'clsx';
import { Waypoints } from 'lucide-react';
import { useUi } from '../stores/ui';
import { sectionMeta } from './sections';

const isMac = typeof navigator !== 'undefined' && /Mac/i.test(navigator.platform);

export function Sidebar() {
  const section = useUi((s) => s.section);
  const setSection = useUi((s) => s.setSection);
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
              <button
                type="button"
                className={clsx('nav-item', section === m.id && 'active')}
                aria-current={section === m.id ? 'page' : undefined}
                onClick={() => setSection(m.id)}
                title={`${m.label} (${isMac ? '⌘' : 'Ctrl+'}${i + 1})`}
              >
                <Icon size={16} aria-hidden="true" />
                <span>{m.label}</span>
                {m.comingSoon ? <span className="nav-soon">soon</span> : null}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
