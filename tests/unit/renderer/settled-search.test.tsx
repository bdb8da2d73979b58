// @vitest-environment jsdom
/**
 * The riskiest card's filter under another sort than riskiest-first (C-98): a search typed key by key
 * reaches it only once the typing pauses; every other change of the filter, and a cleared search,
 * at once.
 */
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ZtaFilter } from '../../../shared/model/zta';
import { useSettledSearch } from '../../../renderer/features/zta/useSettledSearch';

const MS = 250;

describe('useSettledSearch', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('follows a search once the typing pauses, the rest of the filter and a cleared search at once', () => {
    const { result, rerender } = renderHook(({ f }: { f: ZtaFilter }) => useSettledSearch(f, MS), { initialProps: { f: { platform: 'Windows' } as ZtaFilter } });
    expect(result.current).toEqual({ filter: { platform: 'Windows' }, settling: false });
    // Keys 100 ms apart: none of them reaches the card's filter.
    for (const q of ['w', 'ws', 'ws-']) {
      rerender({ f: { platform: 'Windows', q } });
      expect(result.current).toEqual({ filter: { platform: 'Windows' }, settling: true });
      act(() => vi.advanceTimersByTime(100));
    }
    // The rest of the filter moves at once, with the search as it last settled; the pause is
    // counted from the last key (100 ms ago).
    rerender({ f: { platform: 'Mac', q: 'ws-' } });
    expect(result.current.filter).toEqual({ platform: 'Mac' });
    act(() => vi.advanceTimersByTime(MS - 100 - 1));
    expect(result.current.settling).toBe(true);
    act(() => vi.advanceTimersByTime(1));
    expect(result.current).toEqual({ filter: { platform: 'Mac', q: 'ws-' }, settling: false });
    // A key more waits again; clearing does not.
    rerender({ f: { platform: 'Mac', q: 'ws-1' } });
    expect(result.current.filter.q).toBe('ws-');
    rerender({ f: { platform: 'Mac' } });
    expect(result.current).toEqual({ filter: { platform: 'Mac' }, settling: false });
    act(() => vi.advanceTimersByTime(MS));
    expect(result.current).toEqual({ filter: { platform: 'Mac' }, settling: false });
  });
});
