import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createMemoryLogger } from '../../../electron/log';
import { openConfSettings, SETTINGS_FILE } from '../../../electron/store/settings';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'nb-settings-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));
const file = () => path.join(dir, SETTINGS_FILE);
const corruptCopies = () => readdirSync(dir).filter((f) => f.startsWith(`${SETTINGS_FILE}.corrupt-`));

describe('conf settings backend', () => {
  it('stores values under literal keys, in settings.json, owner-only', () => {
    const s = openConfSettings(dir, createMemoryLogger());
    s.set('ui', { theme: 'dark' });
    s.set('oauthClients.p.1', [{ id: 'c1' }]);
    expect(s.get('ui')).toEqual({ theme: 'dark' });
    expect(s.get('oauthClients.p.1')).toEqual([{ id: 'c1' }]);
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({ ui: { theme: 'dark' }, 'oauthClients.p.1': [{ id: 'c1' }] });
    if (process.platform !== 'win32') expect(statSync(file()).mode & 0o777).toBe(0o600);
    s.delete('ui');
    s.set('gone', undefined);
    expect(s.get('ui')).toBeUndefined();
    expect(openConfSettings(dir, createMemoryLogger()).get('oauthClients.p.1')).toEqual([{ id: 'c1' }]);
  });

  it('backs up a corrupt file before starting fresh', () => {
    writeFileSync(file(), '{"ui": {"theme": "dark"');
    const logger = createMemoryLogger();
    const s = openConfSettings(dir, logger);
    expect(s.get('ui')).toBeUndefined();
    expect(corruptCopies()).toHaveLength(1);
    expect(readFileSync(path.join(dir, corruptCopies()[0]!), 'utf8')).toBe('{"ui": {"theme": "dark"');
    expect(logger.lines.join('\n')).toMatch(/moved aside/);
    s.set('ui', { theme: 'light' });
    expect(JSON.parse(readFileSync(file(), 'utf8'))).toEqual({ ui: { theme: 'light' } });
  });

  it('backs up a file that is JSON but not an object', () => {
    writeFileSync(file(), '[1,2,3]');
    openConfSettings(dir, createMemoryLogger());
    expect(corruptCopies()).toHaveLength(1);
  });

  it('backs up a file broken while the app runs, instead of clearing it', () => {
    const s = openConfSettings(dir, createMemoryLogger());
    s.set('ui', { theme: 'dark' });
    writeFileSync(file(), 'not json');
    expect(s.get('ui')).toBeUndefined();
    s.set('ui', { theme: 'system' });
    expect(corruptCopies()).toHaveLength(1);
    expect(readFileSync(path.join(dir, corruptCopies()[0]!), 'utf8')).toBe('not json');
    expect(s.get('ui')).toEqual({ theme: 'system' });
  });
});
