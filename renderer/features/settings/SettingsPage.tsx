import { useUpdateSettings, useSettings } from '../../api/settings';
import { useAppInfo, useDemoStatus } from '../../api/app';
import { SelectField } from '../../components/Field';
import { localTimeZone, type TimeZonePreference } from '../../components/format';
import { useNow } from '../../components/useNow';
import { useTimeFormat } from '../../components/useTimeFormat';
import { useUi, type ThemePreference } from '../../stores/ui';
import { AlarmSettings } from './AlarmSettings';
import { DataFolder } from './DataFolder';
import { PublicationSettings } from './PublicationSettings';
import { RiskHistorySetting } from './RiskHistorySetting';
import { UpdatesSettings } from './UpdatesSettings';
import { TeamSettings } from './TeamSettings';

export function SettingsPage() {
  const theme = useUi((s) => s.theme);
  const setTheme = useUi((s) => s.setTheme);
  const update = useUpdateSettings();
  const settings = useSettings();
  const info = useAppInfo();
  const demo = useDemoStatus();
  const tf = useTimeFormat();
  const now = useNow();

  const change = (next: ThemePreference) => {
    const previous = theme;
    setTheme(next);
    update.mutate({ theme: next }, { onError: () => setTheme(previous) });
  };
  const timeZone = settings.data?.timeZone ?? 'local';
  const example = new Date(now).toISOString();

  const i = info.data;
  return (
    <div className="page settings">
      <section className="card" aria-labelledby="appearance-title">
        <h2 id="appearance-title">Appearance</h2>
        <SelectField label="Theme" value={theme} onChange={(e) => change(e.target.value as ThemePreference)} hint="System follows the light or dark setting of your computer.">
          <option value="system">System</option>
          <option value="light">Light</option>
          <option value="dark">Dark</option>
        </SelectField>
        <SelectField
          label="Time zone"
          value={timeZone}
          disabled={!settings.data}
          onChange={(e) => update.mutate({ timeZone: e.target.value as TimeZonePreference })}
          hint={
            <>
              Times show as <span className="mono" data-testid="time-example">{tf.dateTime(example)}</span>. A relative time (“3 min ago”) shows the exact time when you point at it.
            </>
          }
        >
          <option value="local">Local time ({localTimeZone()})</option>
          <option value="utc">UTC</option>
        </SelectField>
      </section>
      <TeamSettings />
      <PublicationSettings />
      <RiskHistorySetting />
      <AlarmSettings />
      <DataFolder />
      <UpdatesSettings />
      <section className="card" aria-labelledby="about-title">
        <h2 id="about-title">About</h2>
        {i ? (
          <dl className="details" data-testid="app-info">
            <dt>Application</dt>
            <dd>{i.name}</dd>
            <dt>Version</dt>
            <dd className="mono">{i.version}</dd>
            <dt>Mode</dt>
            <dd>{i.mode === 'desktop' ? 'Desktop app' : 'Browser mode (127.0.0.1)'}</dd>
            <dt>Secret storage</dt>
            <dd>
              {i.secretStorage}
              <span className={i.secretsPersist ? 'chip' : 'chip chip-warn'}>{i.secretsPersist ? 'kept across restarts' : 'kept in memory until quit'}</span>
            </dd>
            <dt>Demo workspace</dt>
            <dd>{demo.data?.running ? `running (${demo.data.mgmtOauthUrl ?? demo.data.mgmtBasicUrl ?? ''})` : 'not running'}</dd>
          </dl>
        ) : (
          <p className="muted">Loading…</p>
        )}
      </section>
    </div>
  );
}
