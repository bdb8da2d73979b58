/** Who the app is to the system (issue 23.2, 23.6): the Windows app ID and the data folder, with the one-time move of the old lower-case folder. */
import path from 'node:path';
import { APP_ID, applyIdentity, DEV_DATA_FOLDER, LEGACY_DATA_FOLDER, PRODUCT_NAME, type IdentityFs } from '../../../electron/platform/identity';
import { createFakeElectron } from './fake-electron';

const CONFIG = '/home/op/.config';
const fsWith = (existing: string[]) => {
  const present = new Set(existing);
  const renames: Array<[string, string]> = [];
  const fs: IdentityFs = {
    exists: (p) => present.has(p),
    rename: (from, to) => {
      renames.push([from, to]);
      present.delete(from);
      present.add(to);
    },
  };
  return { fs, renames };
};
const app = (packaged: boolean) => createFakeElectron({ userData: path.join(CONFIG, PRODUCT_NAME), packaged }).electron.app;

describe('applyIdentity', () => {
  it('development: a data folder of its own, set before anything reads it', () => {
    const a = app(false);
    expect(applyIdentity(a, 'linux', fsWith([path.join(CONFIG, LEGACY_DATA_FOLDER)]).fs)).toEqual({ userData: path.join(CONFIG, DEV_DATA_FOLDER) });
    expect(a.getPath('userData')).toBe(path.join(CONFIG, DEV_DATA_FOLDER));
  });

  it('packaged on Linux: moves the old lower-case folder once, when the product’s does not exist yet', () => {
    const legacy = path.join(CONFIG, LEGACY_DATA_FOLDER);
    const target = path.join(CONFIG, PRODUCT_NAME);
    const first = fsWith([legacy]);
    expect(applyIdentity(app(true), 'linux', first.fs)).toEqual({ userData: target, movedFrom: legacy });
    expect(first.renames).toEqual([[legacy, target]]);
    // Both exist (or only the new one): nothing moves.
    const both = fsWith([legacy, target]);
    expect(applyIdentity(app(true), 'linux', both.fs)).toEqual({ userData: target });
    expect(both.renames).toEqual([]);
  });

  it('packaged on Windows and macOS: no move (their file systems ignore case); Windows gets the app user model ID', () => {
    const legacy = path.join(CONFIG, LEGACY_DATA_FOLDER);
    for (const platform of ['win32', 'darwin'] as const) {
      const a = app(true);
      const f = fsWith([legacy]);
      expect(applyIdentity(a, platform, f.fs).movedFrom).toBeUndefined();
      expect(f.renames).toEqual([]);
      expect(a.setAppUserModelId.mock.calls).toEqual(platform === 'win32' ? [[APP_ID]] : []);
    }
  });
});
