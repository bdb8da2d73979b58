/**
 * A replay management node for tests (issue 8): a real HTTPS server on 127.0.0.1 with a fresh
 * self-signed certificate (the simulator's `createCertificate`), answering fixed bodies — by
 * default the recorded shapes of tests/fixtures/mgmt-node — and recording every request. Unlike
 * the simulator it has no state and no rules: it answers what real nodes were seen answering, so
 * a console change can be checked against the real dialect.
 *
 *   const node = await startReplayNode({ oauth: true, routes: { '/mgmt/x': { status: 500, body: {...} } } });
 *   …  https://127.0.0.1:${node.basicPort}/mgmt/sdwan/workflow/devices  (any Basic credentials)
 *   …  POST https://127.0.0.1:${node.oauthPort}/auth/token → token.json, then any Bearer token
 *   await node.close();
 *
 * Routes are keyed by path (GET) or by `METHOD /path`; the query string is ignored when matching
 * (it is recorded). A route may be a function of the request to vary its answer. A request without
 * `Authorization: Basic …` (basic port) or `Bearer …` (OAuth port, except the token call) gets 401
 * with error-yang-401.json; a path no route answers gets 404 with error-spring-404.json.
 */
import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import { createCertificate } from '@northbound/simulators/internal/cert';
import { readFileSync } from 'node:fs';
import type ApplianceList from '../fixtures/mgmt-node/appliance-list.json';
import type DeviceList from '../fixtures/mgmt-node/device-workflow-list.json';
import type DeviceRecord from '../fixtures/mgmt-node/device-workflow-record.json';
import type CustomError500 from '../fixtures/mgmt-node/error-custom-500.json';
import type SpringError404 from '../fixtures/mgmt-node/error-spring-404.json';
import type VnmsError404 from '../fixtures/mgmt-node/error-vnms-404.json';
import type YangError401 from '../fixtures/mgmt-node/error-yang-401.json';
import type OrganizationList from '../fixtures/mgmt-node/organization-list.json';
import type Token from '../fixtures/mgmt-node/token.json';

// Read, not imported: Playwright's loader refuses a JSON import without an import attribute. The
// types still come from the files (a type-only import emits nothing).
const fixture = <T>(name: string): T => JSON.parse(readFileSync(new URL(`../fixtures/mgmt-node/${name}`, import.meta.url), 'utf8')) as T;
const applianceList = fixture<typeof ApplianceList>('appliance-list.json');
const deviceList = fixture<typeof DeviceList>('device-workflow-list.json');
const deviceRecord = fixture<typeof DeviceRecord>('device-workflow-record.json');
const customError500 = fixture<typeof CustomError500>('error-custom-500.json');
const springError404 = fixture<typeof SpringError404>('error-spring-404.json');
const vnmsError404 = fixture<typeof VnmsError404>('error-vnms-404.json');
const yangError401 = fixture<typeof YangError401>('error-yang-401.json');
const organizationList = fixture<typeof OrganizationList>('organization-list.json');
const token = fixture<typeof Token>('token.json');

/** The recorded shapes (fresh copies on every read, so a test may change what it got). */
export const mgmtFixtures = {
  get applianceList() { return structuredClone(applianceList); },
  get deviceList() { return structuredClone(deviceList); },
  get deviceRecord() { return structuredClone(deviceRecord); },
  get customError500() { return structuredClone(customError500); },
  get springError404() { return structuredClone(springError404); },
  get vnmsError404() { return structuredClone(vnmsError404); },
  get yangError401() { return structuredClone(yangError401); },
  get organizationList() { return structuredClone(organizationList); },
  get token() { return structuredClone(token); },
};

export const REPLAY_PATHS = {
  devices: '/mgmt/sdwan/workflow/devices',
  device: (name: string) => `/mgmt/sdwan/workflow/devices/device/${encodeURIComponent(name)}`,
  organizations: '/mgmt/organization/orgs',
  appliances: '/mgmt/appliance/appliance',
  token: '/auth/token',
} as const;

export interface ReplayAnswer {
  /** Default 200. */
  status?: number;
  /** An object or array is sent as JSON; a string as is; undefined = no body. */
  body?: unknown;
  /** Default `application/json` for a JSON body, `text/plain` for a string. */
  contentType?: string;
  headers?: Record<string, string>;
}

export interface ReplayRequest {
  port: 'basic' | 'oauth';
  method: string;
  /** Without the query string, as sent (not decoded). */
  path: string;
  /** The query string without `?` ('' when none). */
  query: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export type ReplayRoute = ReplayAnswer | ((req: ReplayRequest) => ReplayAnswer);

export interface ReplayNodeOptions {
  /** Routes added to (and overriding) the defaults: key `/path` (GET) or `METHOD /path`. */
  routes?: Record<string, ReplayRoute>;
  /** false: only `routes` (no fixture routes, no device-by-name route). Default true. */
  defaults?: boolean;
  /** Also start the OAuth port with `POST /auth/token` → token.json. Default false. */
  oauth?: boolean;
}

export interface ReplayNode {
  basicPort: number;
  /** Only when started with `oauth: true`. */
  oauthPort: number | undefined;
  basicUrl: string;
  oauthUrl: string | undefined;
  certificatePem: string;
  /** 'AB:CD:…', as Node's X509Certificate.fingerprint256. */
  fingerprint256: string;
  /** Every request on either port, in arrival order (authentication failures included). */
  requests: ReplayRequest[];
  close(): Promise<void>;
}

const listedSiteId = new Map(deviceList['mgmt.sdwan-device-list'].map((d) => [d.deviceName, d.siteId]));

/**
 * `GET …/device/<name>`: the recorded record for its own device; for another device of the
 * recorded list, the same record with that name and site ID (a convenience: only one single-device
 * body is reconstructed); any other name, the recorded VOAEException 404 naming it.
 */
function deviceByName(req: ReplayRequest): ReplayAnswer {
  let name: string;
  try {
    name = decodeURIComponent(req.path.slice(`${REPLAY_PATHS.devices}/device/`.length));
  } catch {
    name = req.path;
  }
  const record = mgmtFixtures.deviceRecord;
  const inner = record['mgmt.sdwan-device-workflow'];
  const siteId = listedSiteId.get(name);
  if (name === inner.deviceName) return { body: record };
  if (siteId !== undefined) return { body: { 'mgmt.sdwan-device-workflow': { ...inner, deviceName: name, siteId: Number(siteId) } } };
  return { status: 404, body: { ...mgmtFixtures.vnmsError404, timestamp: Date.now(), message: ` device work flow ${name} does not exist `, path: req.path } };
}

function defaultRoutes(): Record<string, ReplayRoute> {
  return {
    [REPLAY_PATHS.devices]: () => ({ body: mgmtFixtures.deviceList }),
    [REPLAY_PATHS.organizations]: () => ({ body: mgmtFixtures.organizationList }),
    [REPLAY_PATHS.appliances]: () => ({ body: mgmtFixtures.applianceList }),
  };
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : 0);
    });
  });
}

const shutdown = (server: Server) =>
  new Promise<void>((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });

export async function startReplayNode(opts: ReplayNodeOptions = {}): Promise<ReplayNode> {
  const useDefaults = opts.defaults ?? true;
  const routes: Record<string, ReplayRoute> = { ...(useDefaults ? defaultRoutes() : {}), ...opts.routes };
  const requests: ReplayRequest[] = [];
  const cert = await createCertificate();

  const answerOf = (req: ReplayRequest): ReplayAnswer => {
    const route = routes[`${req.method} ${req.path}`] ?? (req.method === 'GET' ? routes[req.path] : undefined);
    if (route) return typeof route === 'function' ? route(req) : route;
    if (useDefaults && req.method === 'GET' && req.path.startsWith(`${REPLAY_PATHS.devices}/device/`) && !req.path.slice(`${REPLAY_PATHS.devices}/device/`.length).includes('/')) {
      return deviceByName(req);
    }
    return { status: 404, body: { ...mgmtFixtures.springError404, timestamp: new Date().toISOString().replace('Z', '+0000'), path: req.path } };
  };

  const handler = (port: ReplayRequest['port']) => async (req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const record: ReplayRequest = {
      port,
      method: (req.method ?? 'GET').toUpperCase(),
      path: q === -1 ? url : url.slice(0, q),
      query: q === -1 ? '' : url.slice(q + 1),
      headers: req.headers,
      body: await readBody(req),
    };
    requests.push(record);
    const auth = req.headers.authorization ?? '';
    const isToken = port === 'oauth' && record.method === 'POST' && record.path === REPLAY_PATHS.token;
    let answer: ReplayAnswer;
    if (isToken && !routes[`POST ${REPLAY_PATHS.token}`]) answer = { body: { ...mgmtFixtures.token, issued_at: new Date().toISOString() } };
    else if (!isToken && !(port === 'basic' ? /^Basic \S+/i : /^Bearer \S+/i).test(auth)) answer = { status: 401, body: mgmtFixtures.yangError401 };
    else answer = answerOf(record);
    const text = typeof answer.body === 'string' ? answer.body : answer.body === undefined ? undefined : JSON.stringify(answer.body);
    const contentType = answer.contentType ?? (typeof answer.body === 'string' ? 'text/plain; charset=utf-8' : 'application/json');
    res.writeHead(answer.status ?? 200, { ...(text !== undefined ? { 'content-type': contentType } : {}), ...answer.headers });
    res.end(text);
  };

  const basic = createServer({ key: cert.key, cert: cert.cert }, (req, res) => void handler('basic')(req, res));
  const oauth = opts.oauth ? createServer({ key: cert.key, cert: cert.cert }, (req, res) => void handler('oauth')(req, res)) : undefined;
  const basicPort = await listen(basic);
  const oauthPort = oauth ? await listen(oauth) : undefined;
  return {
    basicPort,
    oauthPort,
    basicUrl: `https://127.0.0.1:${basicPort}`,
    oauthUrl: oauthPort === undefined ? undefined : `https://127.0.0.1:${oauthPort}`,
    certificatePem: cert.cert,
    fingerprint256: cert.fingerprint256,
    requests,
    async close() {
      await Promise.all([shutdown(basic), ...(oauth ? [shutdown(oauth)] : [])]);
    },
  };
}
