import { describe, expect, it } from 'vitest';
import { BRIDGE_KEY, channelNames, eventNames } from '../../../shared/contract';
import { BRIDGE_NAME, CHANNEL_NAMES, EVENT_NAMES } from '../../../shared/contract-names';

describe('contract names for the preload', () => {
  it('lists exactly the channels and events of the contract', () => {
    expect([...CHANNEL_NAMES].sort()).toEqual([...channelNames].sort());
    expect([...EVENT_NAMES].sort()).toEqual([...eventNames].sort());
    expect(BRIDGE_NAME).toBe(BRIDGE_KEY);
  });
});
