/**
 * The step log of a deployment task: every progress and error message the node showed, each with
 * its time. The node's task record (MN-45) carries a time per message; where a node gives none,
 * main stamps the message with when it first saw it. Merging keeps what was seen before, so a
 * node that lists only its latest message still leaves the whole log.
 */
import type { TaskStep } from '../../shared/model/inventory';

/** A message as read from the node: its time, or null when the node gave none (or none readable). */
export interface NodeStep {
  message: string;
  level: TaskStep['level'];
  at: string | null;
}

/** A task's log is kept to its latest entries: enough for any deployment, bounded for a node that chatters. */
export const MAX_TASK_STEPS = 200;

const instant = (iso: string) => Date.parse(iso);

/**
 * `previous` with the node's messages added that it does not hold yet. A message with a time is
 * new when no earlier step has the same text and level at that time; one without a time when
 * no earlier step has the same text and level at all (it is stamped `seenAt`). Oldest first.
 */
export function mergeSteps(previous: readonly TaskStep[], fromNode: readonly NodeStep[], seenAt: Date): TaskStep[] {
  const out = previous.slice();
  let added = false;
  for (const s of fromNode) {
    const known = out.some((p) => p.level === s.level && p.message === s.message && (s.at === null || p.timeFrom === 'console' || instant(p.at) === instant(s.at)));
    if (known) continue;
    out.push({ at: s.at ?? seenAt.toISOString(), message: s.message, level: s.level, timeFrom: s.at ? 'node' : 'console' });
    added = true;
  }
  if (!added) return out;
  // Stable: messages of the same instant keep the node's order.
  const sorted = out.map((s, i) => ({ s, i })).sort((a, b) => instant(a.s.at) - instant(b.s.at) || a.i - b.i).map((x) => x.s);
  return sorted.slice(-MAX_TASK_STEPS);
}
