/**
 * Issue 7.3: a CA file named outside the window (CLI --ca-file, a legacy store's path) is read
 * asynchronously, only as a regular file under 1 MiB; a FIFO, a device or a folder is refused
 * without blocking or filling memory.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPemFile } from '../../../electron/net/pem-file';
import { makeCert, type TestCert } from './tls-fixture';

let dir: string;
let cert: TestCert;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'nb-pem-'));
  cert = await makeCert();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const reason = (p: Promise<unknown>) => p.then(() => 'read', (e: { code?: string; details?: { reason?: string } }) => `${e.code}:${e.details?.reason}`);

describe('readPemFile', () => {
  it('reads a PEM file and answers its text', async () => {
    const file = join(dir, 'ca.pem');
    writeFileSync(file, `# our CA\n${cert.cert}`);
    expect(await readPemFile(file)).toContain(cert.cert.trim());
  });

  it('refuses a FIFO at once, without waiting for a writer', async () => {
    const fifo = join(dir, 'pipe.pem');
    execFileSync('mkfifo', [fifo]);
    expect(await reason(readPemFile(fifo))).toBe('tls.ca_file:not-a-file');
  });

  it('refuses devices and folders', async () => {
    expect(await reason(readPemFile('/dev/zero'))).toBe('tls.ca_file:not-a-file');
    expect(await reason(readPemFile('/dev/null'))).toBe('tls.ca_file:not-a-file');
    expect(await reason(readPemFile(dir))).toBe('tls.ca_file:not-a-file');
  });

  it('refuses a file over 1 MiB, a missing file and a file with no certificate', async () => {
    const big = join(dir, 'big.pem');
    writeFileSync(big, `${cert.cert}\n${'#'.repeat(1024 * 1024)}`);
    expect(await reason(readPemFile(big))).toBe('tls.ca_file:too-big');
    expect(await reason(readPemFile(join(dir, 'missing.pem')))).toBe('tls.ca_file:not-found');
    expect(await reason(readPemFile(join(dir, 'missing', 'deeper.pem')))).toBe('tls.ca_file:not-found');
    const key = join(dir, 'key.pem');
    writeFileSync(key, cert.key);
    expect(await reason(readPemFile(key))).toBe('tls.ca_file:not-pem');
  });

  it('never quotes what it read', async () => {
    const secretish = join(dir, 'env.pem');
    writeFileSync(secretish, 'NORTHBOUND_VAULT_PASSPHRASE=hunter2\n');
    const e = (await readPemFile(secretish).catch((x: unknown) => x)) as Error & { hint: string };
    expect(`${e.message} ${e.hint}`).not.toContain('hunter2');
  });
});
