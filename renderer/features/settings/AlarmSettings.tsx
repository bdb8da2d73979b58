/**
 * The alarms' settings: how long alarm history is kept (MN-AL11; checked in the window with the
 * schema main uses, saved on Save or Enter, as risk history), and which severities of a new alarm
 * notify (C-31; saved at once). In browser mode the browser's own permission is asked for here,
 * on a button press, never on load.
 */
import { BellRing } from 'lucide-react';
import { useState } from 'react';
import { ACTIVE_SEVERITIES, type ActiveSeverity } from '../../../shared/model/alarms';
import { AlarmHistoryDays } from '../../../shared/model/settings';
import { useUpdateSettings, useSettings } from '../../api/settings';
import { useAppInfo } from '../../api/app';
import { ChoiceOption } from '../../components/Field';
import { HistoryDaysForm } from './HistoryDaysForm';
import { notificationPermission, requestNotificationPermission, type NotificationPermissionState } from '../../app/browser-notifications';

const PERMISSION_TEXT: Record<NotificationPermissionState, string> = {
  granted: 'This browser shows them.',
  denied: 'This browser blocks them: allow notifications for this page in its site settings.',
  default: 'This browser has not been asked yet.',
  unsupported: 'This browser has no notifications.',
};

function BrowserPermission() {
  const [permission, setPermission] = useState(notificationPermission);
  return (
    <p className="field-hint" data-testid="alarm-notify-permission">
      {PERMISSION_TEXT[permission]}{' '}
      {permission === 'default' ? (
        <button type="button" className="button button-small" onClick={() => void requestNotificationPermission().then(setPermission)}>
          <BellRing size={14} aria-hidden="true" />
          Allow notifications…
        </button>
      ) : null}
    </p>
  );
}

export function AlarmSettings() {
  const settings = useSettings();
  const info = useAppInfo();
  const update = useUpdateSettings();
  const notify = new Set(settings.data?.alarmNotify ?? []);
  const toggle = (s: ActiveSeverity, on: boolean) => {
    const next = ACTIVE_SEVERITIES.filter((x) => (x === s ? on : notify.has(x)));
    update.mutate({ alarmNotify: next });
  };

  return (
    <section className="card" aria-labelledby="alarm-settings-title">
      <h2 id="alarm-settings-title">Alarms</h2>
      <HistoryDaysForm
        setting="alarmHistoryDays"
        schema={AlarmHistoryDays}
        formLabel="Alarm history"
        label="Keep alarm history for (days)"
        hint="Status changes and handlings older than this are deleted (at start and hourly), with cleared alarms that did not change since. An open alarm always keeps its newest change."
      />
      <fieldset className="checkbox-group" disabled={!settings.data}>
        <legend>Notify me of new alarms that are</legend>
        <div className="alarm-settings-severities">
          {ACTIVE_SEVERITIES.map((s) => (
            <ChoiceOption key={s} type="checkbox" label={s} checked={notify.has(s)} onChange={(e) => toggle(s, e.target.checked)} data-testid={`alarm-notify-${s}`} />
          ))}
        </div>
        <p className="field-hint alarm-notify-hint">
          {info.data?.mode === 'browser'
            ? 'As browser notifications, at most one per connection every 5 seconds (what comes meanwhile is counted in the next).'
            : 'As system notifications, at most one per connection every 5 seconds (what comes meanwhile is counted in the next). Clear every box to mute them.'}
        </p>
        {info.data?.mode === 'browser' ? <BrowserPermission /> : null}
      </fieldset>
    </section>
  );
}
