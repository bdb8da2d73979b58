/** settings.*, app.info's data folder and app.openDataDir, through the router as the window calls them. */
import { afterEach, describe, expect, it } from 'vitest';
import type { AppInfo } from '../../../shared/contract';
import type { Settings } from '../../../shared/model/settings';
import { startAppHarness, type AppHarness } from '../../support/app-harness';

let h: AppHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('settings', () => {
  it('default to the system theme, local time and 90 days of risk history', async () => {
    h = await startAppHarness();
    expect(await h.call<Settings>('settings.get')).toEqual({ theme: 'system', timeZone: 'local', riskHistoryDays: 90, alarmHistoryDays: 30, alarmNotify: ['critical'] });
  });

  it('change one field at a time, keeping the others', async () => {
    h = await startAppHarness();
    expect(await h.call<Settings>('settings.update', { theme: 'dark' })).toEqual({ theme: 'dark', timeZone: 'local', riskHistoryDays: 90, alarmHistoryDays: 30, alarmNotify: ['critical'] });
    expect(await h.call<Settings>('settings.update', { timeZone: 'utc' })).toEqual({ theme: 'dark', timeZone: 'utc', riskHistoryDays: 90, alarmHistoryDays: 30, alarmNotify: ['critical'] });
    expect(await h.call<Settings>('settings.update', { riskHistoryDays: 30 })).toEqual({ theme: 'dark', timeZone: 'utc', riskHistoryDays: 30, alarmHistoryDays: 30, alarmNotify: ['critical'] });
    expect(await h.call<Settings>('settings.update', { riskHistoryDays: 90 })).toEqual({ theme: 'dark', timeZone: 'utc', riskHistoryDays: 90, alarmHistoryDays: 30, alarmNotify: ['critical'] });
    expect(await h.call<Settings>('settings.update', { alarmHistoryDays: 7 })).toEqual({ theme: 'dark', timeZone: 'utc', riskHistoryDays: 90, alarmHistoryDays: 7, alarmNotify: ['critical'] });
    expect(await h.call<Settings>('settings.update', { alarmHistoryDays: 30 })).toEqual({ theme: 'dark', timeZone: 'utc', riskHistoryDays: 90, alarmHistoryDays: 30, alarmNotify: ['critical'] });
    // Severities are kept in their order, each once; none mutes every notification.
    expect(await h.call<Settings>('settings.update', { alarmNotify: ['major', 'critical', 'major'] })).toMatchObject({ alarmNotify: ['critical', 'major'] });
    expect(await h.call<Settings>('settings.update', { alarmNotify: [] })).toMatchObject({ alarmNotify: [] });
    expect(await h.call<Settings>('settings.update', { alarmNotify: ['critical'] })).toMatchObject({ alarmNotify: ['critical'] });
    expect(await h.call<Settings>('settings.get')).toEqual({ theme: 'dark', timeZone: 'utc', riskHistoryDays: 90, alarmHistoryDays: 30, alarmNotify: ['critical'] });
  });

  it('read a store written before the time zone existed without losing its theme', async () => {
    h = await startAppHarness();
    h.adapters.settings.set('ui', { theme: 'dark' });
    expect(await h.call<Settings>('settings.get')).toEqual({ theme: 'dark', timeZone: 'local', riskHistoryDays: 90, alarmHistoryDays: 30, alarmNotify: ['critical'] });
    h.adapters.settings.set('ui', { theme: 'sepia', timeZone: 'utc', riskHistoryDays: 90, alarmHistoryDays: 'forever', alarmNotify: ['fatal'] });
    expect(await h.call<Settings>('settings.get')).toEqual({ theme: 'system', timeZone: 'utc', riskHistoryDays: 90, alarmHistoryDays: 30, alarmNotify: ['critical'] });
  });

  it('refuse values they do not know, and fields that are no setting', async () => {
    h = await startAppHarness();
    for (const patch of [{ timeZone: 'Europe/Berlin' }, { theme: 'sepia' }, { dataDir: '/tmp' }, { riskHistoryDays: 0 }, { riskHistoryDays: 1.5 }, { riskHistoryDays: 4000 }, { alarmHistoryDays: 0 }, { alarmHistoryDays: 2.5 }, { alarmHistoryDays: 3651 }, { alarmNotify: ['cleared'] }, { alarmNotify: 'critical' }]) {
      const res = await h.callRaw('settings.update', patch);
      expect(res.ok, JSON.stringify(patch)).toBe(false);
      expect(res.error?.code).toBe('request.invalid');
    }
    expect(await h.call<Settings>('settings.get')).toEqual({ theme: 'system', timeZone: 'local', riskHistoryDays: 90, alarmHistoryDays: 30, alarmNotify: ['critical'] });
  });
});

describe('the data folder', () => {
  it('is named by app.info; browser mode cannot open it, and no request names a path', async () => {
    h = await startAppHarness();
    const info = await h.call<AppInfo>('app.info');
    expect(info).toMatchObject({ dataDir: h.dataDir, canOpenDataDir: false });
    const res = await h.callRaw('app.openDataDir');
    expect(res.error).toMatchObject({ code: 'request.forbidden', message: 'Only the desktop app opens the data folder.' });
    expect((await h.callRaw('app.openDataDir', { path: '/etc' })).error?.code).toBe('request.invalid');
  });
});
