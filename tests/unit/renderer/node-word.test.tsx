// @vitest-environment jsdom
/**
 * A device's state on the node (DeviceDetailsDialog): the node's own word beside a chip only when
 * it says more than the chip (issue 22.13: "reachable REACHABLE", "out of sync OUT_OF_SYNC").
 */
import '@testing-library/jest-dom/vitest';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { NodeWord } from '../../../renderer/features/devices/DeviceDetailsDialog';

const shown = (raw: string | null | undefined, chip: string | undefined) => render(<NodeWord raw={raw} shown={chip} />).container.textContent;

describe('the node’s word beside a state chip', () => {
  it('is left out when the chip says the same, whatever the case and separators', () => {
    expect(shown('REACHABLE', 'reachable')).toBe('');
    expect(shown('UNREACHABLE', 'unreachable')).toBe('');
    expect(shown('OUT_OF_SYNC', 'out-of-sync')).toBe('');
    expect(shown('IN_SYNC', 'in-sync')).toBe('');
    expect(shown(null, 'reachable')).toBe('');
  });

  it('is shown when it says more: a value the chip does not know', () => {
    expect(shown('DEGRADED', 'unknown')).toBe('DEGRADED');
    expect(shown('SYNC_PENDING', 'unknown')).toBe('SYNC_PENDING');
  });
});
