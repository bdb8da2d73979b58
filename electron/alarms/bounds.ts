/**
 * The size limits of what the node's alarms carry (issue 20.5; the limits are shared/model/limits.ts):
 * each field of a parsed record or message cut to its limit, the same way for REST and the bus
 * (an alarm's key must come out the same from both), a NUL character as U+FFFD, and a bus message
 * too large to read set aside before it is parsed.
 */
import { boundText, LIMITS } from '../../shared/model/limits';
import type { AlarmHead, AlarmItem, ChangeIn, HandlingIn } from '../../shared/model/alarms';

// A NUL character, which PostgreSQL's text cannot hold (a team's store would refuse the batch, and
// a collector keeps a batch until it commits: C-69), becomes U+FFFD, for every store alike.
const within = (v: string, limit: number) => v.length <= limit && !v.includes('\0');
const bound = (v: string, limit: number) => boundText(v.includes('\0') ? v.replaceAll('\0', '\ufffd') : v, limit);
// What is within every limit (nearly everything) is returned as it is, not copied.
const head = (h: AlarmHead): AlarmHead =>
  within(h.device, LIMITS.key) && within(h.deviceName, LIMITS.key) && within(h.org, LIMITS.name) && within(h.object, LIMITS.key) && within(h.type, LIMITS.key) && within(h.specificProblem, LIMITS.key) && within(h.text, LIMITS.text)
    ? h
    : {
        ...h,
        device: bound(h.device, LIMITS.key),
        deviceName: bound(h.deviceName, LIMITS.key),
        org: bound(h.org, LIMITS.name),
        object: bound(h.object, LIMITS.key),
        type: bound(h.type, LIMITS.key),
        specificProblem: bound(h.specificProblem, LIMITS.key),
        text: bound(h.text, LIMITS.text),
      };
const change = (c: ChangeIn): ChangeIn => (within(c.text, LIMITS.text) ? c : { ...c, text: bound(c.text, LIMITS.text) });
const handling = (h: HandlingIn): HandlingIn => (within(h.user, LIMITS.name) && within(h.description, LIMITS.text) ? h : { ...h, user: bound(h.user, LIMITS.name), description: bound(h.description, LIMITS.text) });

export const boundAlarm = {
  head,
  change,
  handling,
  /** A broker message (wire.ts's AlarmMessageIn; typed by shape here, so bounds.ts needs nothing of wire.ts). */
  message: <M extends AlarmItem & { director: string; eventType: string }>(m: M): M => {
    const h = head(m.head);
    const changes = m.changes.map(change);
    const handlings = m.handlings.map(handling);
    if (h === m.head && changes.every((c, i) => c === m.changes[i]) && handlings.every((x, i) => x === m.handlings[i]) && within(m.director, LIMITS.name) && within(m.eventType, LIMITS.name)) return m;
    return { ...m, head: h, changes, handlings, director: bound(m.director, LIMITS.name), eventType: bound(m.eventType, LIMITS.name) };
  },
};

/** Why a bus message is not read at all (more bytes than LIMITS.busMessageBytes); undefined when it may be. */
export function busMessageTooLarge(content: Buffer | string): string | undefined {
  const bytes = typeof content === 'string' ? Buffer.byteLength(content) : content.length;
  if (bytes <= LIMITS.busMessageBytes) return undefined;
  return `the message is ${bytes.toLocaleString('en-US')} bytes, more than the ${LIMITS.busMessageBytes.toLocaleString('en-US')} a message may have`;
}
