import { Link } from '@tanstack/react-router';
import { Cable } from 'lucide-react';

/** What the inventory pages show with no connection at all. */
export function NoConnection({ what }: { what: string }) {
  return (
    <div className="empty">
      <Cable size={22} aria-hidden="true" />
      <p>{what} come from a management node.</p>
      <p className="muted">Add a connection (or open the demo workspace) first.</p>
      <Link to="/connections" className="button">
        Go to Connections
      </Link>
    </div>
  );
}
