/** Connects the app's session manager to the management node client and the TLS probe. */
import type { CertificateInfo } from '../../shared/model/profile';
import type { Logger } from '../log';
import { MgmtClient } from '../mgmt';
import { probeCertificate } from '../net';
import type { MgmtSessionFactory } from './sessions';

export const createMgmtSession =
  (logger: Logger): MgmtSessionFactory =>
  (profile, secrets, onStatus) =>
    new MgmtClient({ profile, secrets, logger: logger.child(profile.id.slice(0, 8)), onStatus });

export async function inspectWithPem(host: string, port: number): Promise<{ info: CertificateInfo; pem: string }> {
  return probeCertificate(host, port, { timeoutMs: 5_000 });
}
