/**
 * The node's fault-management REST (MN-AL1…MN-AL7) as the alarm sources and the actions call it,
 * through any signed-in management node request (the app's session, the CLI's basic client).
 */
import { AppError, ErrorCodes } from '../../shared/model/errors';
import type { AlarmItem, HandlingState } from '../../shared/model/alarms';
import { boundList, LIMITS } from '../../shared/model/limits';
import type { NodeRequest } from '../mgmt/node-answer';
import { parseAlarmPage, parseAlarmTypes } from './wire';

export const ALARMS_PAGE_PATH = '/mgmt/fault/alarms/page';
export const ALARM_HANDLE_PATH = '/mgmt/fault/alarm/handle';
export const ALARM_CLEAR_PATH = '/mgmt/fault/alarm/clear';
export const ALARM_TYPES_PATH = '/mgmt/fault/types';
/** MN-34: the largest page the node serves. */
export const ALARM_PAGE_LIMIT = 500;


export interface AlarmKey {
  device: string;
  deviceName: string;
  object: string;
  type: string;
  specificProblem: string;
}

export interface AlarmPageQuery {
  /** Only alarms whose last change is after this time (epoch ms, exclusive; MN-AL1). */
  lastChangeAfter?: number;
  offset: number;
  limit: number;
  /** Oldest change first (the backfill's order) or newest first (the default). */
  order?: 'asc' | 'desc';
}

export interface AlarmPageResult {
  items: AlarmItem[];
  /** Records the page held (read or not): decides whether another page follows. */
  records: number;
  total: number | undefined;
  unreadable: number;
  reasons: string[];
  /** Status changes and handlings of readable records that could not be read. */
  unreadableParts?: number;
  partReasons?: string[];
}

const body = (keys: readonly AlarmKey[]) => keys.map((k) => ({ device: k.device, deviceName: k.deviceName, object: k.object, type: k.type, 'specific-problem': k.specificProblem }));

export class NodeAlarmApi {
  constructor(private readonly request: NodeRequest) {}

  async page(q: AlarmPageQuery, signal?: AbortSignal): Promise<AlarmPageResult> {
    const params = new URLSearchParams({ offset: String(q.offset), limit: String(q.limit), sort_column: 'lastStatusChangeTimeStamp', sort_order: q.order ?? 'desc' });
    if (q.lastChangeAfter !== undefined) params.set('last_change_after', String(Math.max(0, Math.floor(q.lastChangeAfter))));
    const answer = await this.request('GET', `${ALARMS_PAGE_PATH}?${params.toString()}`, undefined, signal ? { signal } : undefined);
    const page = parseAlarmPage(answer);
    return { ...page, records: page.items.length + page.unreadable };
  }

  /** Handles (acknowledges, …) the alarms with a note; answers the node's records of them. */
  async handle(keys: readonly AlarmKey[], state: HandlingState, description: string): Promise<AlarmItem[]> {
    return this.action(ALARM_HANDLE_PATH, { alarms: body(keys), state, description }, 'handle');
  }

  async clear(keys: readonly AlarmKey[], description: string): Promise<AlarmItem[]> {
    return this.action(ALARM_CLEAR_PATH, { alarms: body(keys), description }, 'clear');
  }

  async types(): Promise<string[]> {
    return boundList(parseAlarmTypes(await this.request('GET', ALARM_TYPES_PATH)), LIMITS.key);
  }

  private async action(path: string, payload: unknown, what: string): Promise<AlarmItem[]> {
    const answer = await this.request('POST', path, payload);
    // A node that answers no records (204, or an acknowledgement only) still did it; the stream brings the changes.
    if (answer === undefined || answer === null || (typeof answer === 'object' && !Array.isArray(answer) && Object.keys(answer).length === 0)) return [];
    try {
      return parseAlarmPage(answer).items;
    } catch (e) {
      throw new AppError(ErrorCodes.unexpectedResponse, `The node did the ${what} but answered in a shape the console cannot read.`, 'The alarms update when the node’s next changes arrive.', { cause: e });
    }
  }
}
