/** Builds the vendor connector behind each registered connector, for the scheduler. */
import type { Logger } from '../log';
import { DefenderConnector } from './defender';
import { FalconConnector, parseFalconCloud } from './falcon';
import type { StoredConnector } from './registry';
import type { ConnectorRuntime } from './scheduler';
import { AppError, ErrorCodes } from '../../shared/model/errors';

type Check = { name: string; ok: boolean; message: string; hint?: string };
const failed = (name: string, e: unknown): Check => (e instanceof AppError ? { name, ok: false, message: e.message, hint: e.hint } : { name, ok: false, message: String(e) });

export function createRuntime(c: StoredConnector, secret: () => Promise<string | undefined>, logger: Logger): ConnectorRuntime {
  const log = logger.child(`${c.vendor}.${c.id.slice(0, 8)}`);
  const needSecret = async () => {
    const s = await secret();
    if (!s) throw new AppError(ErrorCodes.missingSecret, `No client secret is stored for ${c.name}.`, 'Edit the connector and enter the client secret.');
    return s;
  };
  if (c.vendor === 'defender') {
    const d = new DefenderConnector({
      tenantId: c.tenantId,
      clientId: c.clientId,
      connectorId: c.id,
      secrets: { getClientSecret: needSecret },
      ...(c.idpUrl ? { idpUrl: c.idpUrl } : {}),
      ...(c.apiUrl ? { apiUrl: c.apiUrl } : {}),
      tls: c.tls,
      logger: log,
    });
    return {
      poll: ({ signal, onProgress, onHosts }) =>
        d.poll({ signal, ...(onHosts ? { onHosts } : {}), onProgress: (p) => onProgress(p.phase === 'machines' ? { phase: 'devices', done: p.machines, total: null } : { phase: 'vulnerabilities', done: p.vulnerabilitiesDone, total: p.machines }) }),
      async test(signal) {
        try {
          const diag = await d.diagnose(signal);
          const checks: Check[] = [{ name: 'Token', ok: true, message: 'The identity provider issued a token.' }];
          for (const p of diag.permissions) {
            checks.push({ name: p.name, ok: p.granted, message: p.granted ? 'Granted as an Application permission.' : p.delegated ? 'Added as Delegated: it must be an Application permission.' : 'Missing.' });
          }
          for (const e of diag.problems) checks.push(failed('Fix', e));
          return { ok: diag.ok, checks };
        } catch (e) {
          return { ok: false, checks: [failed('Token', e)] };
        }
      },
      close: () => d.close(),
    };
  }
  const f = new FalconConnector({
    tenantId: c.id,
    clientId: c.clientId,
    clientSecret: needSecret,
    cloudRegion: parseFalconCloud(c.cloudRegion) ?? 'autodiscover',
    ...(c.apiUrl ? { baseUrl: c.apiUrl } : {}),
    tls: c.tls,
    logger: log,
  });
  return {
    poll: ({ signal, onProgress, onHosts }) => f.poll({ signal, ...(onHosts ? { onHosts } : {}), onProgress: (p) => onProgress({ phase: p.phase === 'ids' ? 'devices' : 'vulnerabilities', done: p.done, total: p.total }) }),
    async test(signal) {
      try {
        const r = await f.testConnection(signal);
        return {
          ok: true,
          checks: [
            { name: 'Credentials', ok: true, message: `The API client signed in to the ${r.region} cloud (${r.baseUrl}).` },
            { name: 'Hosts and Zero Trust Assessment', ok: true, message: `Both scopes can be read; ${r.hosts} host(s) visible.` },
          ],
        };
      } catch (e) {
        return { ok: false, checks: [failed('Credentials, region and scopes', e)] };
      }
    },
    close: () => f.close(),
  };
}
