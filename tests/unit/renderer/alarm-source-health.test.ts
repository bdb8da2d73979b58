/** The Alarms source badge's words (issue 20): what the source set aside or could not read is said on the badge. */
import { describe, expect, it } from 'vitest';
import { sourceHealth } from '../../../renderer/features/alarms/SourceBadge';
import type { AlarmSourceStatus } from '../../../shared/model/alarms';

const live: AlarmSourceStatus = {
  profileId: 'p',
  source: 'amqp',
  state: 'live',
  connected: true,
  lagMs: 20,
  backlog: 0,
  lastMessageAt: null,
  lastBackfillAt: null,
  lastBackfillNew: null,
  setAside: 0,
  unreadable: 0,
  broker: null,
  exchange: null,
  queue: null,
  error: null,
  stored: { alarms: 1, changes: 1 },
};

describe('sourceHealth', () => {
  it('says live, and how much was left out when anything was', () => {
    expect(sourceHealth(live)).toEqual({ health: 'live', label: 'Live (broker)' });
    expect(sourceHealth({ ...live, setAside: 1, unreadable: 2 })).toEqual({ health: 'live', label: 'Live (broker), 3 left out' });
  });

  it('says a joined console’s alarms come from the team’s collector, and when none is alive (C-91)', () => {
    const fleet: AlarmSourceStatus = { ...live, source: 'fleet' };
    expect(sourceHealth(fleet)).toEqual({ health: 'live', label: 'Live (team collector)' });
    expect(sourceHealth({ ...fleet, state: 'reconnecting', connected: false })).toEqual({ health: 'down', label: 'Broker reconnecting' });
    expect(sourceHealth({ ...fleet, state: 'stopped', connected: false })).toEqual({ health: 'down', label: 'No live team collector' });
    expect(sourceHealth({ ...live, source: 'none', state: 'stopped', connected: false })).toEqual({ health: 'down', label: 'Not collecting' });
  });
});
