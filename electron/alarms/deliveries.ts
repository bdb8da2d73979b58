/**
 * A batch of broker deliveries read for the store (MN-AL8, MN-AL10): each body parsed and its time
 * checked against the plausible window; what cannot be stored is set aside with its reason, and
 * those reasons are logged ten per ten seconds, then counted (a hostile bus cannot flood the log).
 */
import type { ConsumeMessage } from 'amqplib';
import type { Logger } from '../log';
import type { DeadLetter } from './store/alarm-store';
import { implausibleTime, type TimeWindow } from './time-window';
import { parseAlarmMessage, type AlarmMessageIn } from './wire';

/** The batch's alarm messages, and those set aside (malformed, or a time outside the window: issue 20). */
export function readDeliveries(messages: readonly ConsumeMessage[], window: TimeWindow): { items: AlarmMessageIn[]; dead: DeadLetter[] } {
  const items: AlarmMessageIn[] = [];
  const dead: DeadLetter[] = [];
  for (const m of messages) {
    const parsed = parseAlarmMessage(m.content);
    // A time outside the plausible window is as malformed as a missing one (issue 20).
    const reason = parsed.ok ? implausibleTime(parsed.value, window) : parsed.reason;
    if (parsed.ok && reason === undefined) items.push(parsed.value);
    else dead.push({ reason: reason!, routingKey: m.fields.routingKey, excerpt: m.content.toString('utf8', 0, 2048) });
  }
  return { items, dead };
}

/** Logs a set-aside message's reason: ten per ten seconds, then a count of those not logged. */
export class SetAsideLog {
  private budget = { until: 0, left: 10, suppressed: 0 };

  constructor(
    private readonly logger: Logger,
    private readonly now: () => number,
  ) {}

  log(d: DeadLetter): void {
    const now = this.now();
    if (now >= this.budget.until) {
      if (this.budget.suppressed > 0) this.logger.warn('more alarm messages set aside (not logged one by one)', { count: this.budget.suppressed });
      this.budget = { until: now + 10_000, left: 10, suppressed: 0 };
    }
    if (this.budget.left > 0) {
      this.budget.left -= 1;
      this.logger.warn('alarm message set aside', { reason: d.reason, routingKey: d.routingKey });
    } else this.budget.suppressed += 1;
  }
}
