/**
 * Issue 20.5: an `alarms.list` answer stops at its byte budget and says `more`; the window asks
 * for the rest of its rows from where the answer stopped, in further answers, until it holds
 * ALARM_PAGE rows or the list ends.
 */
import { describe, expect, it } from 'vitest';
import { ALARM_PAGE, readWindow } from '../../../renderer/api/alarms';
import type { AlarmPage, AlarmView } from '../../../shared/model/alarms';

const row = (id: number): AlarmView => ({ id, device: 'd', deviceName: 'd', org: 'o', object: `o${id}`, type: 't', specificProblem: '', severity: 'minor', cleared: false, text: 'x', lastChangeAt: new Date(0).toISOString(), changes: 1, handling: null });

describe('a window read within the answers’ byte budget', () => {
  it('reads on from where a cut answer stopped until the window is whole', async () => {
    const asked: Array<{ offset: number; limit: number }> = [];
    const total = 250;
    // Each answer holds at most 30 rows (as if the budget cut it there).
    const client = {
      invoke: async (_channel: string, req: { offset: number; limit: number }): Promise<AlarmPage> => {
        asked.push({ offset: req.offset, limit: req.limit });
        const n = Math.min(req.limit, 30, total - req.offset);
        return { profileId: 'p', total, offset: req.offset, headSeq: 1, rows: Array.from({ length: n }, (_, i) => row(req.offset + i)), more: n < req.limit && req.offset + n < total };
      },
    };
    const page = await readWindow(client as never, 'p', {}, 100);
    expect(page.rows.map((r) => r.id)).toEqual(Array.from({ length: ALARM_PAGE }, (_, i) => 100 + i));
    expect(page.more).toBe(false);
    expect(asked).toEqual([
      { offset: 100, limit: 100 },
      { offset: 130, limit: 70 },
      { offset: 160, limit: 40 },
      { offset: 190, limit: 10 },
    ]);
  });
});
