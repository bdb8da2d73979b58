/** One device: its record, status, the deployment (with live task progress) and a fresh read from the node. */
import { Link } from '@tanstack/react-router';
import { RefreshCw, Rocket } from 'lucide-react';
import { useState } from 'react';
import type { DeviceView } from '../../../shared/model/inventory';
import type { ProfileView } from '../../../shared/model/profile';
import { useDeployDevice, useDeviceFromNode, useLastTask } from '../../api/inventory';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Dialog } from '../../components/Dialog';
import { Spinner } from '../../components/Spinner';
import { agoText } from '../../components/format';
import { DateTime, RelativeTime } from '../../components/Time';
import { useNow } from '../../components/useNow';
import { countryLabel, serialOf } from '../../../shared/model/device-window';
import { ReachChip, StatusChip, SyncChip } from '../../components/StatusChip';
import { TaskProgress } from '../../components/TaskProgress';
import { WorldPreview } from '../../components/WorldPreview';

export function DeviceDetailsDialog({ profile, device, signedIn, onClose }: { profile: ProfileView; device: DeviceView; signedIn: boolean; onClose(): void }) {
  const deploy = useDeployDevice();
  const fresh = useDeviceFromNode(profile.id, device.deviceName);
  // A running deployment shows its progress, a failed one its task's error (issue 22.6).
  const [chosenTask, setTaskId] = useState<string | null>(device.deploymentStatus === 'deploying' || device.deploymentStatus === 'failed' ? device.lastTaskId : null);
  // A failed deployment the console never followed: its task is looked up in the node's task list.
  const lookUp = device.deploymentStatus === 'failed' && !device.lastTaskId && signedIn;
  const found = useLastTask(profile.id, device.deviceName, lookUp);
  // The task found stays shown once the stored device names it too (the store may say so before the lookup answers).
  const taskId = chosenTask ?? found.data?.taskId ?? null;
  const [asking, setAsking] = useState(false);
  const deploying = device.deploymentStatus === 'deploying';
  const redeploy = device.deploymentStatus !== 'saved';
  // Failures are reported by the query client (toast with the node's message).
  const runDeploy = async () => {
    const task = await deploy.mutateAsync({ profileId: profile.id, deviceName: device.deviceName });
    setTaskId(task.taskId);
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
          <button type="button" className="button button-primary" onClick={() => setAsking(true)} disabled={deploy.isPending || deploying || !signedIn}>
            {deploy.isPending ? <Spinner /> : <Rocket size={14} aria-hidden="true" />}
            {redeploy ? 'Redeploy…' : 'Deploy…'}
          </button>
        </>
      }
    >
      {asking ? (
        <ConfirmDialog title={`${redeploy ? 'Redeploy' : 'Deploy'} ${device.deviceName}?`} confirmLabel={redeploy ? 'Redeploy' : 'Deploy'} onConfirm={runDeploy} onClose={() => setAsking(false)}>
          <p>
            {redeploy
              ? `${profile.name} deploys ${device.deviceName} again over what it runs now; a live device may interrupt traffic while the deployment runs.`
              : `${profile.name} deploys the saved record of ${device.deviceName} to the device.`}{' '}
            The task's progress shows here.
          </p>
        </ConfirmDialog>
      ) : null}
      <div className="device-details">
        <dl className="details">
          <dt>Site ID</dt>
          <dd className="mono">{device.siteId ?? '—'}</dd>
          <dt>Organization</dt>
          <dd>{device.orgName ?? '—'}</dd>
          <dt>Device group</dt>
          <dd>{device.deviceGroup ?? '—'}</dd>
          <dt>Serial number</dt>
          <dd className="mono">{serialOf(device) ?? '—'}</dd>
          <dt>Country</dt>
          <dd>{loc?.country ? countryLabel(loc.country) : '—'}</dd>
          <dt>Location</dt>
          <dd className="mono">{loc?.latitude || loc?.longitude ? `${loc.latitude}, ${loc.longitude}` : '—'}</dd>
          <dt>Node status</dt>
          <dd>{device.workflowStatus ?? '—'}</dd>
          <dt>Last change</dt>
          <dd>
            {device.lastModifiedAt ? (
              <>
                <DateTime iso={device.lastModifiedAt} />
                {device.lastModifiedBy ? ` by ${device.lastModifiedBy}` : ''}
              </>
            ) : (
              '—'
            )}
          </dd>
          <dt>Last task</dt>
          <dd className={device.lastTaskId ? 'mono' : undefined}>
            {device.lastTaskId ?? (lookUp && found.data ? found.data.taskId : null) ?? (device.deploymentStatus === 'failed' ? <UnknownTask looking={lookUp && found.isPending} failed={found.isError} signedIn={signedIn} /> : '—')}
          </dd>
        </dl>
        {loc?.latitude && loc.longitude ? <WorldPreview latitude={loc.latitude} longitude={loc.longitude} label={countryLabel(loc.country)} compact /> : null}
      </div>
      {device.orgName === null || device.deviceGroup === null ? (
        <p className="field-hint device-record-note" data-testid="device-record-partial">
          The node’s device list names only the device, its site ID and status; <strong>Refresh from node</strong> reads its whole record.
        </p>
      ) : null}
      <ApplianceSection device={device} />
      {!signedIn ? <p className="callout callout-info">Showing the stored record. Sign in to {profile.name} to deploy or refresh it.</p> : null}
      {taskId ? <TaskProgress key={taskId} profileId={profile.id} taskId={taskId} /> : null}
    </Dialog>
  );
}

/** Why a failed device shows no task: still looking, the node lists none, or it could not be asked. */
function UnknownTask({ looking, failed, signedIn }: { looking: boolean; failed: boolean; signedIn: boolean }) {
  if (looking) return <Spinner label="Looking for the task in the node’s task list" />;
  return (
    <span className="muted" data-testid="no-failed-task">
      {!signedIn ? 'Sign in to look for it in the node’s task list.' : failed ? 'The node’s task list could not be read.' : 'The node’s task list names no deployment of this device.'}
    </span>
  );
}

/**
 * The node's own word beside a chip, only when it says more than the chip: "REACHABLE" beside
 * "reachable" is noise, a value the chip does not know (shown as "unknown") is not.
 */
export function NodeWord({ raw, shown }: { raw: string | null | undefined; shown: string | undefined }) {
  if (!raw) return null;
  const same = (x: string) => x.toLowerCase().replace(/[\s_-]+/g, ' ').trim();
  if (shown && same(raw) === same(shown)) return null;
  return (
    <span className="muted mono" title="As the node reports it">
      {raw}
    </span>
  );
}

/** The device's state on the node (appliance list): reachability, sync, software, hardware, alarms, and how old that is. */
function ApplianceSection({ device }: { device: DeviceView }) {
  const now = useNow();
  const a = device.appliance;
  if (!a) {
    return (
      <section className="appliance-state" aria-label="State on the node" data-testid="appliance-state">
        <h3>State on the node</h3>
        <p className="muted">
          {device.deploymentStatus === 'saved'
            ? `No appliance yet: ${device.deviceName} is saved on the node but not deployed.`
            : device.deploymentStatus === 'failed'
              ? `No appliance: the deployment of ${device.deviceName} did not complete.`
              : `The node’s appliance list has no appliance named ${device.deviceName} (or it was not fetched yet).`}
        </p>
      </section>
    );
  }
  const stale = now - Date.parse(a.fetchedAt) > 15 * 60_000;
  return (
    <section className="appliance-state" aria-label="State on the node" data-testid="appliance-state">
      <h3>
        State on the node{' '}
        <RelativeTime iso={a.fetchedAt} className={stale ? 'chip chip-warn' : 'muted'} testId="appliance-age" describe={(t) => `Read from the node at ${t}`}>
          as of {agoText(a.fetchedAt, now)}
        </RelativeTime>
      </h3>
      <dl className="details">
        <dt>Reachability</dt>
        <dd>
          <ReachChip value={a.reachability} /> <NodeWord raw={a.pingStatus} shown={a.reachability} />
        </dd>
        <dt>Config sync</dt>
        <dd>
          <SyncChip value={a.configSync} /> <NodeWord raw={a.syncStatus} shown={a.configSync} />
        </dd>
        <dt>Software</dt>
        <dd className="mono">{a.softwareVersion ?? '—'}</dd>
        <dt>Model</dt>
        <dd>{a.model ?? '—'}</dd>
        <dt>Serial (hardware)</dt>
        <dd className="mono">{a.serialNo ?? '—'}</dd>
        <dt>Last update</dt>
        <dd>{a.lastUpdatedAt ? <DateTime iso={a.lastUpdatedAt} /> : '—'}</dd>
        <dt>Alarms</dt>
        <dd data-testid="appliance-alarms">
          {a.alarms ? (
            // The node's counts, each opening the device's open alarms of that severity (issue 22.10).
            <>
              {(['critical', 'major', 'minor', 'warning'] as const).map((sev, k) => (
                <span key={sev}>
                  {k > 0 ? ' · ' : ''}
                  <Link to="/alarms" search={{ device: device.deviceName, severity: sev }} data-testid={`appliance-alarms-${sev}`} title={`Open the ${sev} alarms of ${device.deviceName}`}>
                    {a.alarms![sev]} {sev}
                  </Link>
                </span>
              ))}
            </>
          ) : (
            '—'
          )}
        </dd>
      </dl>
    </section>
  );
}
