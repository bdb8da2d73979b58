/** A fresh self-signed certificate for the simulator's listeners (CN mgmt-node.local, SAN localhost and 127.0.0.1). */
import { X509Certificate } from 'node:crypto';
import { generate } from 'selfsigned';
import { DAY_MS } from './clock';

export interface SimCertificate {
  key: string;
  cert: string;
  fingerprint256: string;
}

export async function createCertificate(): Promise<SimCertificate> {
  // TLS checks validity against real time, so the certificate uses Date.now(), not the SimClock.
  const now = Date.now();
  const pems = await generate([{ name: 'commonName', value: 'mgmt-node.local' }, { name: 'organizationName', value: 'Northbound simulator' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - 3_600_000),
    notAfterDate: new Date(now + 365 * DAY_MS),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 2, value: 'mgmt-node.local' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert, fingerprint256: new X509Certificate(pems.cert).fingerprint256 };
}
