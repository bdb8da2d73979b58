/** Builds the vendor connector behind each registered connector, for the scheduler. */
import type { Logger } from '../log';
import { DefenderConnector } from './defender';
import { FalconConnector, parseFalconCloud } from './falcon';
import type { StoredConnector } from './registry';
import type { ConnectorRuntime } from './scheduler';
import { AppError, ErrorCodes } from '../../shared/model/errors';

type Check = { name: string; ok: boolean; ran?: boolean; message: string; hint?: string };
const failed = (name: string, e: unknown): Check => (e instanceof AppError ? { name, ok: false, message: e.message, hint: e.hint } : { name, ok: false, message: String(e) });
const notRun = (name: string, why: string): Check => ({ name, ok: false, ran: false, message: `Not run: ${why}` });
const result = (checks: Check[]) => ({ ok: checks.every((c) => c.ok), checks });

/**
 * Connector Test: each check is one call the poll makes, in order, and passes only when that call
 * succeeded. A check whose call needs an earlier one that failed is listed as not run. A
 * cancellation is not a check's failure: it ends the test.
 */
async function step(checks: Check[], name: string, run: () => Promise<string>): Promise<boolean> {
  try {
    checks.push({ name, ok: true, message: await run() });
    return true;
  } catch (e) {
    if (e instanceof AppError && e.code === ErrorCodes.cancelled) throw e;
    checks.push(failed(name, e));
    return false;
  }
}

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
        const checks: Check[] = [];
        const diag = await d.diagnose(signal);
        const signedIn = diag.permissions.length > 0;
        if (!signedIn) {
          for (const e of diag.problems) checks.push(failed('Token', e));
          for (const name of ['Permissions', 'Devices API', 'Vulnerabilities export API']) checks.push(notRun(name, 'needs a token.'));
          return result(checks);
        }
        checks.push({ name: 'Token', ok: true, message: 'Microsoft Entra ID issued a token for the Defender API.' });
        for (const p of diag.permissions) {
          checks.push({ name: p.name, ok: p.granted, message: p.granted ? 'Granted as an Application permission.' : p.delegated ? 'Added as Delegated: it must be an Application permission.' : 'Missing.' });
        }
        // What to do about the permissions (and a Cloud App Security token that failed), each once.
        for (const e of diag.problems) checks.push(failed('Fix', e));
        await step(checks, 'Devices API', async () => {
          await d.probeMachines(signal);
          return 'Answered (GET /api/machines): the devices can be read.';
        });
        await step(checks, 'Vulnerabilities export API', async () => {
          await d.probeVulnerabilities(signal);
          return 'Answered (GET /api/machines/SoftwareVulnerabilitiesByMachine): the vulnerabilities can be read.';
        });
        return result(checks);
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
      const checks: Check[] = [];
      if (!(await step(checks, 'Token', async () => {
        const t = await f.signIn(signal);
        return `The Falcon API issued a token (${t.region} cloud, ${t.baseUrl}).`;
      }))) {
        checks.push(notRun('Hosts API', 'needs a token.'), notRun('Zero Trust Assessment API', 'needs a token.'));
        return result(checks);
      }
      let first: string | undefined;
      const listed = await step(checks, 'Hosts API', async () => {
        const h = await f.probeHosts(signal);
        first = h.first;
        return `Hosts can be read (devices:read): ${h.hosts} visible.`;
      });
      if (!listed) checks.push(notRun('Zero Trust Assessment API', 'needs a host from the Hosts API.'));
      else if (first === undefined) checks.push(notRun('Zero Trust Assessment API', 'the tenant has no host to ask about yet.'));
      else {
        const id = first;
        await step(checks, 'Zero Trust Assessment API', async () => ((await f.probeAssessment(id, signal)) ? 'Assessments can be read (zero-trust-assessment:read).' : 'The API answered (zero-trust-assessment:read); this host has no assessment yet.'));
      }
      return result(checks);
    },
    close: () => f.close(),
  };
}
