/** `edr poll`'s progress on stderr: what a log and a terminal get, with the clock in the test's hand. */
import { describe, expect, it } from 'vitest';
import { createPollProgress } from '../../../electron/cli-progress';

function setup(isTTY: boolean, vendor: 'defender' | 'falcon' = 'defender') {
  let t = 0;
  const writes: string[] = [];
  const progress = createPollProgress({ stream: { isTTY, write: (s: string) => writes.push(s) }, vendor, now: () => t });
  return { progress, writes, advance: (ms: number) => (t += ms) };
}

describe('edr poll progress', () => {
  it('in a log: one line per finished phase, a running line at most every 5 s, then the summary', () => {
    const { progress, writes, advance } = setup(false);
    expect(writes).toEqual(['edr poll (defender): signing in… (0.0 s)\n']);
    advance(300);
    progress.phase('devices', 0, null);
    expect(writes.at(-1)).toBe('edr poll (defender): signed in (0.3 s)\n');
    // Many events within 5 s: nothing more is written.
    for (let i = 1; i <= 100; i++) {
      advance(40);
      progress.phase('devices', i * 100, null);
    }
    expect(writes).toHaveLength(2);
    advance(1_000); // 5.3 s since the last line
    progress.phase('devices', 12_000, null);
    expect(writes.at(-1)).toBe('edr poll (defender): listing devices… 12,000 (5.3 s)\n');
    progress.phase('vulnerabilities', 0, 12_000);
    expect(writes.at(-1)).toBe('edr poll (defender): 12,000 devices listed (5.3 s)\n');
    // An event of an earlier phase (the runtime's late report) does not move it back.
    progress.phase('devices', 12_000, null);
    advance(6_000);
    progress.scored(500);
    expect(writes.at(-1)).toBe('edr poll (defender): reading vulnerabilities… 0 of 12,000 devices · 500 scored (11 s)\n');
    progress.phase('vulnerabilities', 12_000, 12_000);
    progress.finish({ hosts: 12_000, scored: 11_998, skipped: 2 });
    expect(writes.slice(-2)).toEqual(['edr poll (defender): vulnerabilities read for 12,000 devices (11 s)\n', 'edr poll (defender): done: 12,000 devices, 11,998 scored, 2 skipped in 11 s\n']);
    expect(writes.join('')).not.toContain('\x1b[');
  });

  it('on a terminal: one line rewritten in place at most every 200 ms, wiped before the summary', () => {
    const { progress, writes, advance } = setup(true, 'falcon');
    expect(writes).toEqual(['\r\x1b[2Kedr poll (falcon): signing in… (0.0 s)']);
    advance(100);
    progress.phase('devices', 500, 2_000); // a new phase is drawn at once
    expect(writes.at(-1)).toBe('\r\x1b[2Kedr poll (falcon): listing hosts… 500 of 2,000 (0.1 s)');
    advance(100);
    progress.phase('devices', 1_000, 2_000);
    expect(writes).toHaveLength(2);
    advance(100);
    progress.phase('devices', 2_000, 2_000);
    expect(writes.at(-1)).toBe('\r\x1b[2Kedr poll (falcon): listing hosts… 2,000 of 2,000 (0.3 s)');
    // Falcon hands out hosts before it reports reading their details: scoring starts that phase.
    advance(300);
    progress.scored(1_000);
    expect(writes.at(-1)).toBe('\r\x1b[2Kedr poll (falcon): reading host details and assessments… 1,000 of 2,000 · 1,000 scored (0.6 s)');
    // Host lines on the same terminal: wiped first, drawn again after.
    progress.clearLine();
    expect(writes.at(-1)).toBe('\r\x1b[2K');
    progress.redraw();
    expect(writes.at(-1)!.startsWith('\r\x1b[2Kedr poll (falcon): reading host details')).toBe(true);
    progress.finish({ hosts: 2_000, scored: 2_000, skipped: 0 });
    expect(writes.slice(-2)).toEqual(['\r\x1b[2K', 'edr poll (falcon): done: 2,000 hosts, 2,000 scored, 0 skipped in 0.6 s\n']);
  });

  it('abandon leaves a clean terminal line for the error, and writes nothing in a log', () => {
    const tty = setup(true);
    tty.progress.abandon();
    expect(tty.writes.at(-1)).toBe('\r\x1b[2K');
    const log = setup(false);
    log.progress.abandon();
    log.progress.redraw();
    expect(log.writes).toHaveLength(1);
  });
});
