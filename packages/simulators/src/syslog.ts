/** Syslog servers of the simulated node (spec 2.4, MN-36): a YANG list with create semantics. */
import { YangError } from './errors';
import { json } from './http';
import type { Handler, Route } from './routes';

export interface SimSyslogServer {
  host: string;
  port: number;
  enabled: boolean;
}

export const SYSLOG_PATH = '/api/config/system/syslog-servers';

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/** A port as a whole number 1-65535 or a string of digits in that range; undefined otherwise. */
function parsePort(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{1,5}$/.test(v.trim()) ? Number(v.trim()) : NaN;
  return Number.isInteger(n) && n >= 1 && n <= 65535 ? n : undefined;
}

const malformed = (message: string) => new YangError(400, 'malformed-message', message);

function parseSyslog(body: unknown): SimSyslogServer {
  const server = isObject(body) ? body.server : undefined;
  if (!isObject(server)) throw malformed('The body must be an object with the key server.');
  if (typeof server.host !== 'string' || server.host.trim() === '') throw malformed('server/host: a host name or address is required.');
  const port = parsePort(server.port);
  if (port === undefined) throw malformed(`server/port: "${String(server.port)}" is not a valid port value (1-65535).`);
  if (typeof server.enabled !== 'boolean') throw malformed('server/enabled: must be true or false.');
  return { host: server.host.trim(), port, enabled: server.enabled };
}

export function syslogRoute(servers: SimSyslogServer[]): Route {
  const list: Handler = () => json(200, { 'syslog-servers': { server: servers } });
  const create: Handler = (req) => {
    const server = parseSyslog(req.body);
    if (servers.some((s) => s.host === server.host)) {
      throw new YangError(400, 'data-exists', `server/host: a syslog server ${server.host} already exists.`);
    }
    servers.push(server);
    return { status: 201, headers: { location: `${SYSLOG_PATH}/server/${encodeURIComponent(server.host)}` } };
  };
  return { pattern: SYSLOG_PATH, style: 'yang', auth: 'data', methods: { GET: list, POST: create } };
}
