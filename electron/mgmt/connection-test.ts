/** The "Test connection" button: reachability, certificate, credentials, in that order. */
import type { ConnectionTest } from '../../shared/contract';
import { API_UNAUTHENTICATED, isAppError } from '../../shared/model/errors';
import type { CertificateInfo } from '../../shared/model/profile';

/** Errors that mean "reached and trusted the node, but it did not accept the credentials". */
export function isCredentialFailure(code: string): boolean {
  return code.startsWith('oauth.') || code.startsWith('vault.') || code.startsWith('session.') || code === API_UNAUTHENTICATED || code === 'yang.access-denied' || code === 'request.invalid';
}

export async function runConnectionTest(steps: { probe: () => Promise<CertificateInfo>; authenticate: () => Promise<string> }): Promise<ConnectionTest> {
  const certificate = await steps.probe();
  const started = performance.now();
  try {
    const detail = await steps.authenticate();
    return { latencyMs: Math.round(performance.now() - started), certificate, authenticated: true, detail };
  } catch (e) {
    if (isAppError(e) && isCredentialFailure(e.code)) {
      return { latencyMs: Math.round(performance.now() - started), certificate, authenticated: false, detail: `${e.message} ${e.hint}`.trim() };
    }
    throw e;
  }
}
