/**
 * Issue 7.3: stores written before the console kept a custom CA's PEM name a CA file path. On
 * start the app reads each once (asynchronously; a FIFO or device is refused, never waited on)
 * and keeps the PEM; the connection then works without ever reading that path again.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeAdapters } from '../../../electron/app/node-platform';
import { createApp, type App } from '../../../electron/app/services';
import { createMemoryLogger } from '../../../electron/log';
import { startMgmtSimulator, type MgmtSimulator } from '@northbound/simulators/testing';

let dir: string;
let sim: MgmtSimulator;
let app: App | undefined;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nb-legacy-ca-'));
  sim = await startMgmtSimulator({ basicPort: 0, oauthPort: 0 });
});
afterAll(async () => {
  await app?.shutdown();
  await sim?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('legacy custom-CA paths', () => {
  it('are read once on start and kept as PEM; a FIFO path is refused without hanging the start', async () => {
    const caFile = path.join(dir, 'node-ca.pem');
    await writeFile(caFile, sim.certificatePem);
    const fifo = path.join(dir, 'fifo.pem');
    execFileSync('mkfifo', [fifo]);
    const dataDir = path.join(dir, 'data');
    const adapters = await createNodeAdapters({ dataDir, logger: createMemoryLogger(), mode: 'browser' });
    const operator = sim.users.find((u) => u.role === 'operator')!;
    const legacy = (id: string, name: string, file: string) => ({
      id,
      name,
      host: '127.0.0.1',
      basicPort: sim.basicPort,
      oauthPort: sim.oauthPort,
      authMode: 'basic',
      username: operator.username,
      tls: { mode: 'custom-ca', caFile: file },
      demo: false,
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
    });
    adapters.settings.set('profiles', [legacy('good', 'Good', caFile), legacy('fifo', 'Pipe', fifo)]);
    await adapters.vault.set('profile:good:password', operator.password);
    await adapters.vault.set('profile:fifo:password', operator.password);
    app = await createApp(adapters, { openDemo: false });
    const good = app.profiles.get('good');
    expect(good.tls).toMatchObject({ mode: 'custom-ca', caName: 'node-ca.pem', caPem: sim.certificatePem });
    expect(app.profiles.get('fifo').tls).toEqual({ mode: 'custom-ca', caFile: fifo });
    // The file is gone: the connection keeps working from the kept PEM.
    await rm(caFile);
    expect(await app.router.invoke('session.signIn', { profileId: 'good' })).toMatchObject({ ok: true, value: { state: 'signed-in' } });
    // The unreadable one says to choose the file again instead of reading the path.
    expect(await app.router.invoke('session.signIn', { profileId: 'fifo' })).toMatchObject({ ok: false, error: { code: 'tls.ca_file' } });
    expect(await app.router.invoke('profiles.list', {})).toMatchObject({ ok: true, value: expect.arrayContaining([expect.objectContaining({ id: 'good', tls: { mode: 'custom-ca', caName: 'node-ca.pem' } })]) });
  });
});
