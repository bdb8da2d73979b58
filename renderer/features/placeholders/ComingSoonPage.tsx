import { Check } from 'lucide-react';
import type { SectionMeta } from '../../app/sections';

export function ComingSoonPage({ meta }: { meta: SectionMeta }) {
  const Icon = meta.icon;
  return (
    <section className="coming-soon" aria-labelledby="soon-title">
      <div className="coming-soon-icon" aria-hidden="true">
        <Icon size={26} />
      </div>
      <h2 id="soon-title">{meta.label} is coming soon</h2>
      <p>{meta.comingSoon?.summary}</p>
      <ul>
        {meta.comingSoon?.bullets.map((b) => (
          <li key={b}>
            <Check size={14} aria-hidden="true" />
            {b}
          </li>
        ))}
      </ul>
    </section>
  );
}
