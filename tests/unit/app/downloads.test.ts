/**
 * Browser mode's exports/ (issue 20.9): the data folder's rule is 0700 for folders, so the folder
 * main writes exports into is created owner-only, and one an older version left wider (with its
 * files) is gone before the first export is written; once the last offered file is taken, the
 * folder goes too.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Downloads } from '../../../electron/app/downloads';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
const dataDir = () => {
  const d = mkdtempSync(path.join(os.tmpdir(), 'nb-downloads-'));
  dirs.push(d);
  return d;
};

describe('the exports folder', () => {
  it('is created 0700 for the first export', async () => {
    const dir = dataDir();
    const file = await new Downloads(dir).pathFor('csv');
    expect(path.dirname(file)).toBe(path.join(dir, 'exports'));
    expect(statSync(path.join(dir, 'exports')).mode & 0o777).toBe(0o700);
  });

  it('left 0755 by an older version, with a file in it: that file is gone and the folder is 0700', async () => {
    const dir = dataDir();
    const old = path.join(dir, 'exports');
    mkdirSync(old, { mode: 0o755 });
    writeFileSync(path.join(old, 'stale.csv'), 'x');
    const downloads = new Downloads(dir);
    await downloads.pathFor('json');
    expect(existsSync(path.join(old, 'stale.csv'))).toBe(false);
    expect(statSync(old).mode & 0o777).toBe(0o700);
  });

  it('goes once the last offered file was taken, not while another is offered or being written', async () => {
    const dir = dataDir();
    const downloads = new Downloads(dir);
    const folder = path.join(dir, 'exports');
    const first = await downloads.pathFor('csv');
    writeFileSync(first, 'a,b\n');
    const second = await downloads.pathFor('json');
    writeFileSync(second, '{}');
    const firstUrl = downloads.offer({ file: first, name: 'zta.csv', type: 'text/csv' });
    // The second is still being written: taking the first leaves the folder.
    await downloads.take(firstUrl.split('/').pop()!)!.discard();
    expect(existsSync(first)).toBe(false);
    expect(existsSync(folder)).toBe(true);
    const secondUrl = downloads.offer({ file: second, name: 'zta.json', type: 'application/json' });
    await downloads.take(secondUrl.split('/').pop()!)!.discard();
    expect(existsSync(folder)).toBe(false);
    // A later export makes it again.
    expect(path.dirname(await downloads.pathFor('csv'))).toBe(folder);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
  });
});
