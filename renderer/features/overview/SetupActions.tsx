/** What to do when something is missing: add a connection or a connector, or open the demo workspace. */
import { Link } from '@tanstack/react-router';
import { Plug, Plus, Rocket } from 'lucide-react';
import { Spinner } from '../../components/Spinner';
import { useUi } from '../../stores/ui';
import { useOpenDemoAction } from '../../app/WelcomePanel';

export function SetupActions({ what, demo = true }: { what: 'connection' | 'connector'; demo?: boolean }) {
  const openDialog = useUi((s) => s.openDialog);
  const openDemo = useOpenDemoAction();
  return (
    <>
      {what === 'connection' ? (
        <button type="button" className="button button-small" onClick={() => openDialog({ kind: 'profile-form' })}>
          <Plus size={14} aria-hidden="true" />
          Add a connection
        </button>
      ) : (
        <Link to="/connectors" className="button button-small">
          <Plug size={14} aria-hidden="true" />
          Add a connector
        </Link>
      )}
      {demo ? (
        <button type="button" className="button button-small" onClick={() => void openDemo.open()} disabled={openDemo.pending}>
          {openDemo.pending ? <Spinner /> : <Rocket size={14} aria-hidden="true" />}
          Open demo workspace
        </button>
      ) : null}
    </>
  );
}
