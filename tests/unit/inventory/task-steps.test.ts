import { describe, expect, it } from 'vitest';
import type { TaskStep } from '../../../shared/model/inventory';
import { MAX_TASK_STEPS, mergeSteps } from '../../../electron/inventory/task-steps';

const at = (s: number) => new Date(Date.UTC(2026, 4, 1, 10, 0, s)).toISOString();

describe('a task step log', () => {
  it('keeps the node times and orders by them', () => {
    const steps = mergeSteps([], [
      { message: 'Verification', level: 'info', at: at(30) },
      { message: 'Staging', level: 'info', at: at(10) },
    ], new Date(at(40)));
    expect(steps.map((s) => [s.message, s.at, s.timeFrom])).toEqual([
      ['Staging', at(10), 'node'],
      ['Verification', at(30), 'node'],
    ]);
  });

  it('stamps a message without a time when it is first seen, and keeps that time', () => {
    const first = mergeSteps([], [{ message: 'Staging', level: 'info', at: null }], new Date(at(5)));
    const second = mergeSteps(first, [{ message: 'Staging', level: 'info', at: null }, { message: 'Configuration', level: 'info', at: null }], new Date(at(9)));
    expect(second).toEqual([
      { at: at(5), message: 'Staging', level: 'info', timeFrom: 'console' },
      { at: at(9), message: 'Configuration', level: 'info', timeFrom: 'console' },
    ]);
  });

  it('keeps every step of a node that lists only its latest message', () => {
    let steps: TaskStep[] = [{ at: at(0), message: 'Requested', level: 'info', timeFrom: 'console' }];
    steps = mergeSteps(steps, [{ message: 'Staging', level: 'info', at: at(1) }], new Date(at(2)));
    steps = mergeSteps(steps, [{ message: 'Configuration', level: 'info', at: at(3) }], new Date(at(4)));
    steps = mergeSteps(steps, [{ message: 'Commit failed', level: 'error', at: at(3) }], new Date(at(5)));
    expect(steps.map((s) => s.message)).toEqual(['Requested', 'Staging', 'Configuration', 'Commit failed']);
  });

  it('adds the same text again when the node gives it another time, and never twice for the same one', () => {
    const once = mergeSteps([], [{ message: 'Retrying', level: 'info', at: at(1) }], new Date(at(9)));
    const again = mergeSteps(once, [{ message: 'Retrying', level: 'info', at: at(1) }, { message: 'Retrying', level: 'info', at: at(4) }], new Date(at(9)));
    expect(again.map((s) => s.at)).toEqual([at(1), at(4)]);
    // The same instant written another way is the same step.
    expect(mergeSteps(again, [{ message: 'Retrying', level: 'info', at: '2026-05-01T10:00:04Z' }], new Date(at(9)))).toHaveLength(2);
  });

  it(`keeps the latest ${MAX_TASK_STEPS} steps`, () => {
    const many = Array.from({ length: MAX_TASK_STEPS + 5 }, (_, i) => ({ message: `step ${i}`, level: 'info' as const, at: new Date(Date.UTC(2026, 4, 1) + i * 1000).toISOString() }));
    const steps = mergeSteps([], many, new Date());
    expect(steps).toHaveLength(MAX_TASK_STEPS);
    expect(steps[0]?.message).toBe('step 5');
    expect(steps.at(-1)?.message).toBe(`step ${MAX_TASK_STEPS + 4}`);
  });
});
