import { Plus, Rocket, Waypoints } from 'lucide-react';
import { toast } from 'sonner';
import { useOpenDemo } from '../api/app';
import { Spinner } from '../components/Spinner';
import { useChooseConnection } from './useActiveProfile';
import { useUi } from '../stores/ui';

export function useOpenDemoAction() {
  const demo = useOpenDemo();
  // Opening the demo workspace is asking to work in it: its OAuth connection becomes the chosen one.
  const choose = useChooseConnection();
  const open = async () => {
    try {
      const status = await demo.mutateAsync();
      const demoProfile = status.oauthProfileId ?? status.profileId;
      if (demoProfile) choose(demoProfile);
      toast.success('The demo workspace is ready.', {
        description: 'Two connections to the built-in management node simulator and two EDR connectors (Defender and Falcon simulators) were added.',
      });
    } catch {
      // reported by the query client
    }
  };
  return { open, pending: demo.isPending };
}

export function WelcomePanel() {
  const openDialog = useUi((s) => s.openDialog);
  const { open, pending } = useOpenDemoAction();
  return (
    <section className="welcome" aria-labelledby="welcome-title">
      <div className="welcome-icon" aria-hidden="true">
        <Waypoints size={28} />
      </div>
      <h2 id="welcome-title">Welcome to Northbound</h2>
      <p>
        Connect to an SD-WAN management node to manage its OAuth clients, devices and alarms, and poll your EDR tenants for endpoint risk. Not ready to connect a real
        node? The demo workspace starts a built-in management node simulator and Defender and Falcon simulators on this computer and connects to them.
      </p>
      <div className="welcome-actions">
        <button type="button" className="button button-primary button-large" onClick={() => void open()} disabled={pending} aria-describedby={pending ? 'demo-progress' : undefined}>
          {pending ? <Spinner size={16} /> : <Rocket size={16} aria-hidden="true" />}
          Open demo workspace
        </button>
        <button type="button" className="button button-large" onClick={() => openDialog({ kind: 'profile-form' })} disabled={pending}>
          <Plus size={16} aria-hidden="true" />
          Add a management node
        </button>
      </div>
      {pending ? (
        <div className="progress" id="demo-progress" role="status">
          <div className="progress-bar" aria-hidden="true">
            <span />
          </div>
          Starting the simulators, creating the demo connections and connectors, and signing in…
        </div>
      ) : null}
    </section>
  );
}
