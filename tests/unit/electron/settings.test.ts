import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryLogger } from '../../../electron/log';

const h = vi.hoisted(() => ({ on: vi.fn(), removeAllListeners: vi.fn() }));
vi.mock('electron', () => {
  const electron = {
    app: { getPath: () => os.tmpdir(), getVersion: () => '0.1.0' },
    ipcMain: { on: h.on, removeAllListeners: h.removeAllListeners },
    shell: {},
  };
  return { ...electron, default: electron };
});

const { openElectronStoreSettings, ELECTRON_STORE_IPC } = await import('../../../electron/platform/settings');

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-estore-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('electron-store settings backend', () => {
  it('stores literal keys in <dataDir>/settings.json and drops electron-store\'s IPC listener', () => {
    const ipcMain = { removeAllListeners: vi.fn() };
    const s = openElectronStoreSettings(dir, createMemoryLogger(), ipcMain);
    s.set('oauthClients.a.b', [1]);
    expect(JSON.parse(readFileSync(path.join(dir, 'settings.json'), 'utf8'))).toEqual({ 'oauthClients.a.b': [1] });
    expect(s.get('oauthClients.a.b')).toEqual([1]);
    expect(ipcMain.removeAllListeners).toHaveBeenCalledWith(ELECTRON_STORE_IPC);
  });

  it('backs up a corrupt file instead of clearing it', () => {
    writeFileSync(path.join(dir, 'settings.json'), '{"ui":');
    const s = openElectronStoreSettings(dir, createMemoryLogger());
    expect(s.get('ui')).toBeUndefined();
    const aside = readdirSync(dir).filter((f) => f.startsWith('settings.json.corrupt-'));
    expect(aside).toHaveLength(1);
    expect(readFileSync(path.join(dir, aside[0]!), 'utf8')).toBe('{"ui":');
  });
});
