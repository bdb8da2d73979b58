/**
 * Settings → Updates (issue 23.7): the running version, where updates come from, and Check,
 * Download, Restart to install, one after the other; nothing happens on its own. Off (a build
 * without a feed, an unsigned Windows build, a start from a clone) and browser mode say why.
 */
import { Download, RefreshCw, RotateCw } from 'lucide-react';
import { useUpdateAction, useUpdateStatus } from '../../api/settings';
import { Spinner } from '../../components/Spinner';
import { DateTime } from '../../components/Time';

export function UpdatesSettings() {
  const status = useUpdateStatus();
  const act = useUpdateAction();
  const s = status.data;
  const busy = act.isPending || s?.state === 'checking' || s?.state === 'downloading';
  let line: string;
  switch (s?.state) {
    case 'unavailable':
    case 'off':
      line = s.message ?? 'Updates are off.';
      break;
    case 'idle':
      line = 'Not checked yet.';
      break;
    case 'checking':
      line = 'Checking…';
      break;
    case 'current':
      line = `${s.version} is the newest version.`;
      break;
    case 'available':
      line = `Version ${s.available} is available.`;
      break;
    case 'downloading':
      line = `Downloading ${s.available}: ${Math.round(s.percent ?? 0)} %`;
      break;
    case 'downloaded':
      line = `Version ${s.available} is ready: Northbound restarts to install it.`;
      break;
    case 'error':
      line = `The update did not work: ${s.message ?? 'no reason given'}`;
      break;
    default:
      line = 'Loading…';
  }
  const off = s?.state === 'off' || s?.state === 'unavailable';
  return (
    <section className="card" aria-labelledby="updates-title" data-testid="updates">
      <h2 id="updates-title">Updates</h2>
      {s ? (
        <>
          <dl className="details">
            <dt>Version</dt>
            <dd className="mono">{s.version}</dd>
            {s.feed ? (
              <>
                <dt>From</dt>
                <dd className="mono">{s.feed}</dd>
              </>
            ) : null}
            {s.checkedAt ? (
              <>
                <dt>Last check</dt>
                <dd>
                  <DateTime iso={s.checkedAt} />
                </dd>
              </>
            ) : null}
          </dl>
          <p className={s.state === 'error' ? 'field-error' : 'muted'} role="status" data-testid="updates-state" data-state={s.state}>
            {line}
          </p>
          {s.state === 'downloading' ? (
            <div className="progress-bar determinate" role="progressbar" aria-label="Update download" aria-valuemin={0} aria-valuemax={100} aria-valuenow={Math.round(s.percent ?? 0)}>
              <span style={{ width: `${s.percent ?? 0}%` }} />
            </div>
          ) : null}
          {off ? null : (
            <div className="form-actions">
              <button type="button" className="button" onClick={() => act.mutate('check')} disabled={busy}>
                {s.state === 'checking' ? <Spinner /> : <RefreshCw size={14} aria-hidden="true" />}
                Check for updates
              </button>
              {s.state === 'available' ? (
                <button type="button" className="button button-primary" onClick={() => act.mutate('download')} disabled={busy}>
                  <Download size={14} aria-hidden="true" />
                  Download {s.available}
                </button>
              ) : null}
              {s.state === 'downloaded' ? (
                <button type="button" className="button button-primary" onClick={() => act.mutate('install')} disabled={act.isPending}>
                  <RotateCw size={14} aria-hidden="true" />
                  Restart to install
                </button>
              ) : null}
            </div>
          )}
        </>
      ) : (
        <Spinner label="Loading" />
      )}
    </section>
  );
}
