/**
 * One request on one port: login-page fault, routing (404), method (405), Accept and Content-Type
 * (415), body, authentication, handler; errors rendered in their API's style; every request recorded.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CustomError, OAuthError, SimError, VnmsError, YangError, oauthErrorXml, styledError } from './errors';
import { authenticateBasic, authenticateBearer, requireMethodAllowed } from './guard';
import { isJsonContentType, negotiate, prefersXml, readBody, type Reply } from './http';
import { normalizeAddress } from './ip';
import { matchRoute, type PortName, type Route, type SimContext, type SimRequest } from './routes';
import type { SimStats } from './stats';

export interface DispatchDeps {
  ctx: SimContext;
  routes: Record<PortName, Route[]>;
  stats: SimStats;
}

function write(res: ServerResponse, reply: Reply): void {
  const headers: Record<string, string> = { ...reply.headers };
  let payload: string | undefined;
  if (typeof reply.body === 'string') payload = reply.body;
  else if (reply.body !== undefined) {
    payload = JSON.stringify(reply.body);
    headers['content-type'] ??= 'application/json';
  }
  // RFC 9110: no Content-Length on 204
  if (reply.status !== 204) headers['content-length'] = String(payload === undefined ? 0 : Buffer.byteLength(payload));
  res.writeHead(reply.status, headers);
  res.end(payload);
}

function renderError(e: SimError, path: string, accept: string | undefined, now: number): Reply {
  const headers = { ...e.headers };
  if (e instanceof OAuthError) {
    if (prefersXml(accept)) return { status: e.status, headers: { ...headers, 'content-type': 'application/xml; charset=utf-8' }, body: oauthErrorXml(e) };
    return { status: e.status, headers, body: e.body() };
  }
  if (e instanceof YangError) return { status: e.status, headers, body: e.body(path) };
  if (e instanceof VnmsError) return { status: e.status, headers, body: e.body(path, now) };
  return { status: e.status, headers, body: (e as CustomError).body() };
}

/** Parses the JSON body of a request that has one (MN-20: it must be application/json). */
async function parseBody(req: IncomingMessage, route: Route): Promise<unknown> {
  const style = route.style === 'page' ? 'custom' : route.style;
  const { text, tooLarge } = await readBody(req);
  if (tooLarge) throw styledError(style, 400, 'The request body is larger than 1 MiB.');
  if (text.length === 0) return undefined;
  if (!isJsonContentType(req.headers)) throw styledError(style, 415, 'Send the request body as Content-Type: application/json.');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw styledError(style, 400, 'The request body is not valid JSON.');
  }
}

async function handle(deps: DispatchDeps, port: PortName, req: IncomingMessage): Promise<Reply> {
  const { ctx } = deps;
  const method = (req.method ?? 'GET').toUpperCase();
  const url = new URL(req.url ?? '/', 'https://simulator.invalid');
  const path = url.pathname.length > 1 ? url.pathname.replace(/\/+$/, '') : url.pathname;
  ctx.store.runDueCleanup();
  const intercepted = ctx.faults.intercept();
  if (intercepted) {
    req.resume();
    return intercepted;
  }
  const found = matchRoute(deps.routes[port], path);
  if (!found) {
    req.resume();
    throw new CustomError(404, 0, 'Not Found', `No resource at ${path} on this port.`);
  }
  const { route, params } = found;
  const handler = route.methods[method];
  if (!handler) {
    req.resume();
    const allow = Object.keys(route.methods).join(', ');
    throw styledError(route.style === 'page' ? 'custom' : route.style, 405, `${method} is not allowed on ${path}; use ${allow}.`, { allow });
  }
  if (route.style !== 'page' && negotiate(req.headers.accept, route.style === 'oauth') === undefined) {
    req.resume();
    const types = route.style === 'oauth' ? 'application/json or application/xml' : 'application/json';
    throw styledError(route.style, 415, `Accept must allow ${types}.`);
  }
  const body = await parseBody(req, route);
  const request: SimRequest = { port, method, path, query: url.searchParams, headers: req.headers, params, body, remoteAddress: normalizeAddress(req.socket.remoteAddress) };
  if (route.auth === 'data') {
    const bearer = port === 'oauth';
    request.principal = bearer
      ? authenticateBearer(ctx.store, req.headers, request.remoteAddress, ctx.clock.now())
      : authenticateBasic(ctx.store, req.headers, route.style === 'yang');
    requireMethodAllowed(request.principal, method, bearer);
    await ctx.faults.beforeData(path);
  }
  return handler(request);
}

export function createDispatcher(deps: DispatchDeps, port: PortName): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    const method = (req.method ?? 'GET').toUpperCase();
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    const key = `${method} ${path}`;
    deps.stats.open.add(key);
    res.on('close', () => {
      deps.stats.open.delete(key);
      if (!res.writableFinished) deps.stats.aborted.push(key);
    });
    const finish = (reply: Reply) => {
      deps.stats.record({ method, path, status: reply.status, port });
      deps.ctx.logger.debug('request', { port, method, path, status: reply.status });
      write(res, reply);
    };
    handle(deps, port, req).then(finish, (e: unknown) => {
      if (e instanceof SimError) {
        finish(renderError(e, path, req.headers.accept, deps.ctx.clock.now()));
        return;
      }
      deps.ctx.logger.error('simulator handler failed', { port, method, path, error: e instanceof Error ? e.message : String(e) });
      finish({ status: 500, body: new CustomError(500, 5000, 'INTERNAL_SERVER_ERROR', 'The simulator failed to handle the request.').body() });
    });
  };
}
