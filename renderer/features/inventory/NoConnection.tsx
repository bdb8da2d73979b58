import { Cable } from 'lucide-react';
import { useUi } from '../../stores/ui';

/** What the inventory pages show with no connection at all. */
export function NoConnection({ what }: { what: string }) {
  const setSection = useUi((s) => s.setSection);
  return (
    <div className="empty">
      <Cable size={22} aria-hidden="true" />
      <p>{what} come from a management node.</p>
      <p className="muted">Add a connection (or open the demo workspace) first.</p>
      <button type="button" className="button" onClick={() => setSection('connections')}>
        Go to Connections
      </button>
    </div>
  );
}
