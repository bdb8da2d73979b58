import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryLogger } from '../../../electron/log';
import { createDesktopAdapters, NO_KEYRING_CHOICE_KEY, type DesktopAdapterDeps } from '../../../electron/platform/adapters';
import { PASSPHRASE_ENV } from '../../../electron/platform/safe-storage';

vi.mock('electron-store', async () => {
  // electron-store needs a running Electron for its default folder; the wrapper is the same for conf.
  const { default: Conf } = await import('conf');
  return { default: class extends Conf { constructor(o: Record<string, unknown>) { super({ ...o, configName: o.name as string, projectName: 'northbound' }); } } };
});

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-adapters-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const deps = (backend: string, answer: { response: number; checkboxChecked?: boolean } = { response: 1 }, env: NodeJS.ProcessEnv = {}) => {
  const showMessageBox = vi.fn(async (_options: Record<string, unknown>) => ({ checkboxChecked: false, ...answer }));
  const d: DesktopAdapterDeps = {
    app: { getPath: () => dir, getVersion: () => '1.2.3' },
    safeStorage: { isEncryptionAvailable: () => true, getSelectedStorageBackend: () => backend as never, encryptString: (s) => Buffer.from(`k:${s}`), decryptString: (b) => b.toString().slice(2) },
    dialog: { showMessageBox } as never,
    ipcMain: { removeAllListeners: vi.fn() } as never,
    logger: createMemoryLogger(),
    platform: 'linux',
    env,
  };
  return { d, showMessageBox };
};

describe('desktop adapters', () => {
  it('use safeStorage when the keyring is real', async () => {
    const { d, showMessageBox } = deps('gnome_libsecret');
    const a = await createDesktopAdapters(d);
    expect(a).toMatchObject({ mode: 'desktop', dataDir: dir, version: '1.2.3', vault: { kind: 'safeStorage', persistent: true } });
    expect(showMessageBox).not.toHaveBeenCalled();
    expect(d.ipcMain!.removeAllListeners).toHaveBeenCalledWith('electron-store-get-data');
  });

  it('make the userData folder 0700 and the settings file 0600 when an older version left them wider', async () => {
    chmodSync(dir, 0o755);
    writeFileSync(path.join(dir, 'settings.json'), '{"kept":true}', { mode: 0o644 });
    chmodSync(path.join(dir, 'settings.json'), 0o644);
    const a = await createDesktopAdapters(deps('basic_text', { response: 0 }).d);
    expect(a!.settings.get('kept')).toBe(true);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(path.join(dir, 'settings.json')).mode & 0o777).toBe(0o600);
  });

  it('ask on basic_text: memory only writes no vault, and "don\'t ask again" is remembered', async () => {
    const { d, showMessageBox } = deps('basic_text', { response: 0, checkboxChecked: true });
    const a = await createDesktopAdapters(d);
    expect(showMessageBox).toHaveBeenCalledTimes(1);
    expect(a!.vault).toMatchObject({ kind: 'memory', persistent: false });
    await a!.vault.set('profile:x:password', 'not-on-disk');
    expect(readdirSync(dir)).not.toContain('vault.json');
    expect(a!.settings.get(NO_KEYRING_CHOICE_KEY)).toBe('memory');
    const again = deps('basic_text');
    expect((await createDesktopAdapters(again.d))!.vault.kind).toBe('memory');
    expect(again.showMessageBox).not.toHaveBeenCalled();
  });

  it('open their own data folder in the file manager, and say so when the file manager fails', async () => {
    const openPath = vi.fn(async (_path: string) => '');
    const a = await createDesktopAdapters({ ...deps('gnome_libsecret').d, shell: { openPath } });
    await a!.openDataDir!();
    expect(openPath).toHaveBeenCalledWith(dir);
    openPath.mockResolvedValueOnce('No application is registered for folders');
    await expect(a!.openDataDir!()).rejects.toThrow('The file manager could not open the data folder: No application is registered for folders');
    // Without a shell (tests, older callers) the app cannot open it at all.
    expect((await createDesktopAdapters(deps('gnome_libsecret').d))!.openDataDir).toBeUndefined();
  });

  it('answer undefined when the operator chooses to quit', async () => {
    const { d } = deps('basic_text', { response: 1 });
    expect(await createDesktopAdapters(d)).toBeUndefined();
  });

  it('use a passphrase from the environment, then forget it there', async () => {
    const env: NodeJS.ProcessEnv = { [PASSPHRASE_ENV]: 'desk-passphrase' };
    const { d, showMessageBox } = deps('basic_text', { response: 1 }, env);
    const a = await createDesktopAdapters(d);
    expect(a!.vault).toMatchObject({ kind: 'passphrase', persistent: true });
    expect(env[PASSPHRASE_ENV]).toBeUndefined();
    expect(showMessageBox).not.toHaveBeenCalled();
  });

  it('offer memory-only when the vault on disk is locked, leaving the file as it is', async () => {
    await createDesktopAdapters(deps('basic_text', { response: 1 }, { [PASSPHRASE_ENV]: 'first-passphrase' }).d);
    const { d, showMessageBox } = deps('basic_text', { response: 0 }, { [PASSPHRASE_ENV]: 'other-passphrase' });
    const a = await createDesktopAdapters(d);
    expect(showMessageBox.mock.calls[0]![0]).toMatchObject({ type: 'error' });
    expect(a!.vault.kind).toBe('memory');
    expect(readdirSync(dir).filter((f) => f.startsWith('vault.json'))).toEqual(['vault.json']);
  });

  it('back up a corrupt settings file', async () => {
    writeFileSync(path.join(dir, 'settings.json'), '{oops');
    const a = await createDesktopAdapters(deps('gnome_libsecret').d);
    expect(a!.settings.get('ui')).toBeUndefined();
    expect(readdirSync(dir).some((f) => f.startsWith('settings.json.corrupt-'))).toBe(true);
  });
});
