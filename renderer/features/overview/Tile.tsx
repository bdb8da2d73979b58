/**
 * One tile of the Overview: a title that links to its page, the numbers, and a footer that says
 * what they are as of (or why there are none yet). Every tile has that footer (C-40).
 */
import type { LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';

export function Tile({ id, title, icon: Icon, link, footer, children, className }: { id: string; title: string; icon: LucideIcon; link?: ReactNode; footer: ReactNode; children: ReactNode; className?: string }) {
  return (
    <section className={`ov-tile ${className ?? ''}`} aria-labelledby={`ov-${id}-title`} data-testid={`tile-${id}`}>
      <header className="ov-tile-head">
        <h3 id={`ov-${id}-title`}>
          <Icon size={15} aria-hidden="true" />
          {title}
        </h3>
        {link}
      </header>
      <div className="ov-tile-body">{children}</div>
      <footer className="ov-tile-foot">{footer}</footer>
    </section>
  );
}

/** A tile with nothing to count yet: what is missing and what to do (never a 0 for "unknown"). */
export function TileEmpty({ children, actions }: { children: ReactNode; actions?: ReactNode }) {
  return (
    <div className="ov-empty" data-testid="tile-empty">
      <p>{children}</p>
      {actions ? <div className="ov-empty-actions">{actions}</div> : null}
    </div>
  );
}
