/** Never without the sandbox (issue 23.3): when a start is refused, and what it says. */
import { sandboxRefusal } from '../../../electron/platform/sandbox';

const line = (...switches: string[]) => ({ hasSwitch: (s: string) => switches.includes(s) });

describe('sandboxRefusal', () => {
  it('lets a start with the sandbox on through, packaged or not', () => {
    expect(sandboxRefusal(line(), { packaged: true, env: {}, argv: ['/opt/Northbound/northbound'] })).toBeUndefined();
    expect(sandboxRefusal(line(), { packaged: true, env: { APPIMAGE: '/tmp/N.AppImage' }, argv: [] })).toBeUndefined();
  });

  it('refuses a packaged start without it, by switch or argument, naming the switch and the fix', () => {
    for (const [cl, argv, off] of [
      [line('no-sandbox'), [], 'no-sandbox'],
      [line(), ['/opt/Northbound/northbound', '--disable-setuid-sandbox'], 'disable-setuid-sandbox'],
    ] as const) {
      const r = sandboxRefusal(cl, { packaged: true, env: {}, argv })!;
      expect(r.title).toBe('Northbound does not run without its sandbox');
      expect(r.message).toContain(`--${off}`);
      expect(r.detail).toContain('.deb');
    }
  });

  it('explains the AppImage case: the kernel’s restriction, the deb, or a profile for that AppImage', () => {
    const r = sandboxRefusal(line('no-sandbox'), { packaged: true, env: { APPIMAGE: '/home/op/N.AppImage' }, argv: [] })!;
    expect(r.title).toBe('Northbound cannot start from this AppImage');
    expect(r.detail).toMatch(/AppArmor profile/);
    expect(r.detail).toContain('Install the .deb package');
    expect(r.detail).toContain('/home/op/N.AppImage');
  });

  it('from a clone it does not refuse (a developer’s container may need the switch)', () => {
    expect(sandboxRefusal(line('no-sandbox'), { packaged: false, env: { APPIMAGE: '/x' }, argv: [] })).toBeUndefined();
  });
});
