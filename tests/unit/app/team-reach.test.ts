/**
 * TeamReach (C-90) on its own: answers kept per channel and request while joined, the kept one
 * answered while the database is away (said once), a failure that is not the database's passes
 * through, nothing kept when not joined nor across a join or leave, and reachable again once
 * `SELECT 1` answers.
 */
import { describe, expect, it } from 'vitest';
import { TeamReach } from '../../../electron/app/team-reach';
import { createMemoryLogger } from '../../../electron/log';
import { AppError, ErrorCodes } from '../../../shared/model/errors';
import type { TeamHealth } from '../../../shared/model/fleet-health';
import { until } from '../../support/until';

function setup() {
  const s = { joined: true, up: true, events: [] as TeamHealth[] };
  const reach = new TeamReach({
    joined: () => s.joined,
    probe: async () => {
      if (!s.up) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
    },
    emit: (h) => s.events.push(h),
    logger: createMemoryLogger(),
    retryMs: 20,
  });
  const read = (key: string, value: number) =>
    reach.read(key, async () => {
      if (!s.up) throw new Error('Connection terminated unexpectedly');
      return value;
    });
  return { s, reach, read };
}

describe('TeamReach', () => {
  it('answers the last good read per key while the database is away, says so once, and is reachable again by itself', async () => {
    const { s, reach, read } = setup();
    expect(await read('a', 1)).toBe(1);
    expect(await read('b', 2)).toBe(2);
    const lastRead = reach.health().lastReadAt;
    s.up = false;
    expect(await read('a', 10)).toBe(1);
    expect(await read('b', 20)).toBe(2);
    await expect(read('c', 3)).rejects.toMatchObject({ code: ErrorCodes.teamUnreachable });
    expect(reach.health()).toMatchObject({ joined: true, reachable: false, lastReadAt: lastRead });
    expect(s.events.map((e) => e.reachable)).toEqual([false]);
    s.up = true;
    await until('reachable again', () => reach.health().reachable);
    expect(s.events.map((e) => e.reachable)).toEqual([false, true]);
    expect(await read('a', 11)).toBe(11);
    reach.close();
  });

  it('a failure that is not the database’s is the caller’s error; not joined, nothing is kept', async () => {
    const { s, reach } = setup();
    await expect(reach.read('x', async () => Promise.reject(new AppError(ErrorCodes.forbidden, 'no', 'no')))).rejects.toMatchObject({ code: ErrorCodes.forbidden });
    await expect(reach.read('x', async () => Promise.reject(new Error('syntax error at or near')))).rejects.toThrow('syntax error');
    expect(reach.health().reachable).toBe(true);
    s.joined = false;
    expect(await reach.read('y', async () => 5)).toBe(5);
    s.joined = true;
    s.up = false;
    await expect(reach.read('y', async () => Promise.reject(new Error('gone')))).rejects.toMatchObject({ code: ErrorCodes.teamUnreachable });
    reach.close();
  });

  it('a join or a leave drops what was kept', async () => {
    const { s, reach, read } = setup();
    await read('a', 1);
    reach.reset();
    s.up = false;
    await expect(read('a', 2)).rejects.toMatchObject({ code: ErrorCodes.teamUnreachable });
    expect(reach.health().lastReadAt).toBeNull();
    reach.close();
  });
});
