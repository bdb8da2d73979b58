/** The simulator's small router: path patterns with `:param` segments, handlers by method. */
import type { IncomingHttpHeaders } from 'node:http';
import type { SimLogger as Logger } from './log';
import type { SimClock } from './clock';
import type { ApiStyle } from './errors';
import type { Principal } from './guard';
import type { Reply } from './http';
import type { SimStore } from './store';
import type { MgmtFaultHooks } from './fault-hooks';

export type PortName = 'basic' | 'oauth';

export interface SimRequest {
  port: PortName;
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  params: Record<string, string>;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  /** Socket address without the IPv4-mapped prefix. */
  remoteAddress: string;
  /** Set by the dispatcher on routes with auth 'data'. */
  principal?: Principal;
}

export type Handler = (req: SimRequest) => Reply | Promise<Reply>;

export interface Route {
  /** e.g. '/mgmt/sdwan/workflow/devices/device/:name' */
  pattern: string;
  /** Style of protocol errors (405, 415, bad JSON); 'page' for the HTML login page. */
  style: ApiStyle | 'page';
  /** 'data': basic credentials on the basic port, a bearer token on the OAuth port (viewers read only). */
  auth: 'data' | 'none';
  methods: Record<string, Handler>;
}

/** What handlers share. */
export interface SimContext {
  store: SimStore;
  clock: SimClock;
  /** Where a test bends the answers (NO_MGMT_FAULTS: never). */
  faults: MgmtFaultHooks;
  logger: Logger;
  /** https://127.0.0.1:<oauth port>, known once listening. */
  oauthUrl(): string;
}

export function matchRoute(routes: readonly Route[], path: string): { route: Route; params: Record<string, string> } | undefined {
  const segments = path.split('/').slice(1);
  for (const route of routes) {
    const parts = route.pattern.split('/').slice(1);
    if (parts.length !== segments.length) continue;
    const params: Record<string, string> = {};
    let ok = true;
    for (let i = 0; i < parts.length && ok; i += 1) {
      const part = parts[i] ?? '';
      const seg = segments[i] ?? '';
      if (part.startsWith(':')) {
        if (seg === '') ok = false;
        else {
          try {
            params[part.slice(1)] = decodeURIComponent(seg);
          } catch {
            ok = false;
          }
        }
      } else if (part !== seg) ok = false;
    }
    if (ok) return { route, params };
  }
  return undefined;
}
