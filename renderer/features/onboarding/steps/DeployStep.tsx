/** After onboarding: the saved device, and its deployment with live task progress. */
import { CircleCheck } from 'lucide-react';
import type { DeviceView } from '../../../../shared/model/inventory';
import type { ProfileView } from '../../../../shared/model/profile';
import { StatusChip } from '../../../components/StatusChip';
import { TaskProgress } from '../../../components/TaskProgress';

export function DeployStep({ profile, device, taskId }: { profile: ProfileView; device: DeviceView; taskId: string | undefined }) {
  return (
    <div className="wizard-step" data-testid="wizard-deploy">
      <p className="callout callout-info" role="status">
        <CircleCheck size={16} aria-hidden="true" className="ok-icon" />
        <span>
          <strong className="mono">{device.deviceName}</strong> is saved on {profile.name} (site ID {device.siteId}) <StatusChip status={device.deploymentStatus} />
        </span>
      </p>
      {taskId ? <TaskProgress key={taskId} profileId={profile.id} taskId={taskId} /> : <p className="muted">Deploy it now, or later from its details on the Devices page.</p>}
    </div>
  );
}
