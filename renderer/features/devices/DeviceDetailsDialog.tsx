/** One device: its record, status, the deployment (with live task progress) and a fresh read from the node. */
import { RefreshCw, Rocket } from 'lucide-react';
import { useState } from 'react';
import type { DeviceView } from '../../../shared/model/inventory';
import type { ProfileView } from '../../../shared/model/profile';
import { useDeployDevice, useDeviceFromNode } from '../../api/inventory';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { countryLabel } from './device-index';
import { StatusChip } from './StatusChip';
import { TaskProgress } from './TaskProgress';
import { WorldPreview } from '../onboarding/WorldPreview';

export function DeviceDetailsDialog({ profile, device, signedIn, onClose }: { profile: ProfileView; device: DeviceView; signedIn: boolean; onClose(): void }) {
  const deploy = useDeployDevice();
  const fresh = useDeviceFromNode(profile.id, device.deviceName);
  const [taskId, setTaskId] = useState<string | null>(device.deploymentStatus === 'deploying' ? device.lastTaskId : null);
  const deploying = device.deploymentStatus === 'deploying';
  const runDeploy = async () => {
    try {
      const task = await deploy.mutateAsync({ profileId: profile.id, deviceName: device.deviceName });
      setTaskId(task.taskId);
    } catch {
      // reported by the query client (toast with the node's message)
    }
  };
  const loc = device.locationInfo;

  return (
    <Dialog
      title={<span className="mono">{device.deviceName}</span>}
      description={
        <>
          On {profile.name} · <StatusChip status={device.deploymentStatus} />
        </>
      }
      onClose={onClose}
      size="md"
      testId="device-details"
      footer={
        <>
          <button type="button" className="button" onClick={() => fresh.mutate()} disabled={fresh.isPending || !signedIn} title={signedIn ? 'Read this device again from the node' : 'Needs a signed-in session'}>
            {fresh.isPending ? <Spinner /> : <RefreshCw size={14} aria-hidden="true" />}
            Refresh from node
          </button>
          <button type="button" className="button button-primary" onClick={() => void runDeploy()} disabled={deploy.isPending || deploying || !signedIn} data-autofocus>
            {deploy.isPending ? <Spinner /> : <Rocket size={14} aria-hidden="true" />}
            {device.deploymentStatus === 'saved' ? 'Deploy' : 'Redeploy'}
          </button>
        </>
      }
    >
      <div className="device-details">
        <dl className="details">
          <dt>Site ID</dt>
          <dd className="mono">{device.siteId}</dd>
          <dt>Organization</dt>
          <dd>{device.orgName}</dd>
          <dt>Device group</dt>
          <dd>{device.deviceGroup}</dd>
          <dt>Serial number</dt>
          <dd className="mono">{device.serialNumber}</dd>
          <dt>Country</dt>
          <dd>{countryLabel(loc.country)}</dd>
          <dt>Location</dt>
          <dd className="mono">
            {loc.latitude}, {loc.longitude}
          </dd>
          <dt>Last task</dt>
          <dd className="mono">{device.lastTaskId ?? '—'}</dd>
        </dl>
        <WorldPreview latitude={loc.latitude} longitude={loc.longitude} label={countryLabel(loc.country)} compact />
      </div>
      {!signedIn ? <p className="callout callout-info">Showing the stored record. Sign in to {profile.name} to deploy or refresh it.</p> : null}
      {taskId ? <TaskProgress key={taskId} profileId={profile.id} taskId={taskId} /> : null}
    </Dialog>
  );
}
