/**
 * Fuzz of every channel of the contract with malformed and hostile requests (fuzz-cases.ts),
 * once through the real browser-mode host (HTTP + WebSocket) and once through the router as
 * Electron IPC calls it, both over a real app (createApp on a fresh data folder, real stores).
 * Asserts: no 5xx, every answer is the error shape or a result valid for the channel, no request
 * hangs (each has a deadline; hangs are counted), the host still answers a list channel, no
 * prototype pollution, and no unhandled rejection or exception in the process.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { channelNames, channels, ResultShape, type ChannelName } from '../../../shared/contract';
import { createMemoryLogger } from '../../../electron/log';
import { startWebHost, type WebHost } from '../../../electron/web/host';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { badFrames, fuzzCases, type FuzzCase, type FuzzEnv } from './fuzz-cases';
import { clientFrame, rawWebSocket } from './raw';

const DEADLINE_MS = 15_000;
const MAX_MESSAGE = 2000;
let dir: string;
let fifo: string;
let env: FuzzEnv;
let harness: AppHarness;
let host: WebHost;
const unhandled: string[] = [];
const onUnhandled = (e: unknown) => unhandled.push(e instanceof Error ? `${e.name}: ${e.message}` : String(e));

beforeAll(async () => {
  process.on('unhandledRejection', onUnhandled);
  process.on('uncaughtException', onUnhandled);
  dir = await mkdtemp(path.join(os.tmpdir(), 'nb-fuzz-'));
  fifo = path.join(dir, 'fifo');
  execFileSync('mkfifo', [fifo]);
  await writeFile(path.join(dir, 'index.html'), '<!doctype html><title>NB</title>');
  // The demo workspace gives real ids, so requests reach the handlers and the node simulator behind them.
  // Connectors poll a stand-in runtime: a fuzzed connector must not reach a vendor's real cloud.
  harness = await startAppHarness({ openDemo: true, app: { edr: { runtimeFor: () => ({ poll: async () => [] }) } } });
  const demo = await harness.call<{ profileId?: string; oauthProfileId?: string }>('demo.status');
  for (const profileId of [demo.profileId, demo.oauthProfileId]) await harness.call('session.signIn', { profileId });
  const connectors = await harness.call<Array<{ id: string }>>('connectors.list');
  env = { fifo, profileId: demo.profileId, oauthProfileId: demo.oauthProfileId, connectorId: connectors[0]?.id };
  expect(env.profileId).toBeTruthy();
  expect(env.connectorId).toBeTruthy();
  host = await startWebHost({ router: harness.app.router, events: harness.app.events, logger: createMemoryLogger(), staticDir: dir });
});

afterAll(async () => {
  process.off('unhandledRejection', onUnhandled);
  process.off('uncaughtException', onUnhandled);
  await host?.close();
  await harness?.close();
  // Should a reader still wait on the FIFO, a writer that closes at once lets it go.
  await new Promise<void>((resolve) => spawn('timeout', ['2', 'sh', '-c', `: > '${fifo}'`]).on('close', () => resolve()));
  await rm(dir, { recursive: true, force: true });
});

interface Tally {
  sent: number;
  hangs: string[];
  failures: string[];
}

/** What a reply must be: below 500, the error shape, or a result valid for the channel. */
function judge(channel: ChannelName, c: FuzzCase, status: number, text: string, t: Tally) {
  if (status >= 500) t.failures.push(`${c.name}: HTTP ${status} ${text.slice(0, 200)}`);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return t.failures.push(`${c.name}: HTTP ${status}, not JSON: ${text.slice(0, 120)}`);
  }
  judgeResult(channel, c, body, t);
}

function judgeResult(channel: ChannelName, c: FuzzCase, body: unknown, t: Tally) {
  const result = ResultShape.safeParse(body);
  if (!result.success) return t.failures.push(`${c.name}: not a Result: ${JSON.stringify(body).slice(0, 200)}`);
  if (result.data.ok && !channels[channel].response.safeParse(result.data.value).success) t.failures.push(`${c.name}: ok:true with a value outside the response schema`);
  if (result.data.ok) return;
  const { code, message } = result.data.error;
  if (code === 'internal') t.failures.push(`${c.name}: internal error (a handler threw something unexpected)`);
  // The UI shows the message in a toast: it must not echo a 1 MB field back.
  if (message.length > MAX_MESSAGE) t.failures.push(`${c.name}: a ${message.length}-character error message`);
}

const isTimeout = (e: unknown) => e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');

async function listStillAnswers(invoke: (channel: string, body: unknown) => Promise<unknown>) {
  const list = ResultShape.parse(await invoke('profiles.list', {}));
  expect(list.ok).toBe(true);
}

function noPollution() {
  const probe = {} as Record<string, unknown>;
  expect(probe.polluted).toBeUndefined();
  expect(Object.keys(Object.prototype)).toEqual([]);
}

describe('browser host under malformed and hostile requests', () => {
  const post = async (channel: string, body: Buffer | string) => {
    const res = await fetch(`${host.origin}/api/invoke/${encodeURIComponent(channel)}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-northbound-token': host.token },
      body: typeof body === 'string' ? body : new Uint8Array(body),
      signal: AbortSignal.timeout(DEADLINE_MS),
    });
    return { status: res.status, text: await res.text() };
  };

  it.each(channelNames)('%s', { timeout: 180_000 }, async (channel) => {
    const t: Tally = { sent: 0, hangs: [], failures: [] };
    for (const c of fuzzCases(channel, env)) {
      t.sent++;
      try {
        const { status, text } = await post(channel, c.body);
        judge(channel, c, status, text, t);
      } catch (e) {
        if (isTimeout(e)) t.hangs.push(c.name);
        else t.failures.push(`${c.name}: ${e instanceof Error ? `${e.name}: ${e.message} ${String((e as { cause?: unknown }).cause ?? '')}` : String(e)}`);
      }
    }
    expect(t.sent).toBeGreaterThan(10);
    expect(t.hangs).toEqual([]);
    expect(t.failures).toEqual([]);
    await listStillAnswers(async (ch, body) => JSON.parse((await post(ch, JSON.stringify(body))).text));
  });

  it('survives bad WebSocket frames and keeps pushing events', async () => {
    for (const f of badFrames) {
      const ws = await rawWebSocket(host.port, { 'x-northbound-token': host.token, origin: host.origin });
      expect(ws.statusLine, f.name).toContain('101');
      ws.socket.write(clientFrame(f.opcode, f.payload));
      // End politely; a socket the server closed already just reports its close code.
      ws.socket.end(clientFrame(0x8, Buffer.from([0x03, 0xe8])));
      const code = await ws.closed(DEADLINE_MS);
      expect(code, f.name).toBe(f.closeCode);
    }
    const ws = await rawWebSocket(host.port, { 'x-northbound-token': host.token, origin: host.origin });
    const got = ws.received('after the bad frames', DEADLINE_MS);
    harness.app.events.emit('notice', { level: 'info', message: 'after the bad frames' });
    await got;
    ws.socket.destroy();
  });

  it('left no prototype pollution and no unhandled error behind', () => {
    noPollution();
    expect(unhandled).toEqual([]);
  });

  it('never reads a path a request names: CA files and documents given as FIFOs or devices are refused, nothing waits on them', async () => {
    const race = (channel: string, request: unknown) =>
      Promise.race([harness.app.router.invoke(channel, request), new Promise<'hang'>((resolve) => setTimeout(() => resolve('hang'), DEADLINE_MS).unref())]);
    const profile = harness.app.profiles.get(env.profileId!);
    const base = { id: profile.id, name: profile.name, host: profile.host, basicPort: profile.basicPort, oauthPort: profile.oauthPort, authMode: profile.authMode, username: profile.username };
    for (const caFile of [fifo, '/dev/zero', '/proc/self/environ']) {
      const saved = await race('profiles.save', { ...base, tls: { mode: 'custom-ca', caFile } });
      expect(saved, caFile).toMatchObject({ ok: false, error: { code: 'request.invalid' } });
      const connector = await race('connectors.save', { vendor: 'falcon', tenantId: 'fuzz-cid', clientId: 'c', clientSecret: 's', tls: { mode: 'custom-ca', caFile } });
      expect(connector, caFile).toMatchObject({ ok: false, error: { code: 'request.invalid' } });
      const imported = await race('connectors.importBulk', { source: 'file', path: caFile });
      expect(imported, caFile).toMatchObject({ ok: false, error: { code: 'request.invalid' } });
      expect(JSON.stringify(imported)).not.toMatch(/NORTHBOUND|PATH=|HOME=/);
    }
    // The profile kept its trust, and signing in answers (nothing blocked the process).
    expect(harness.app.profiles.get(profile.id).tls.mode).toBe(profile.tls.mode);
    expect(await race('session.signIn', { profileId: profile.id })).toMatchObject({ ok: true });
  });
});

describe('router (Electron IPC path) under the same requests', () => {
  const invoke = (channel: string, request: unknown) =>
    Promise.race([
      harness.app.router.invoke(channel, request),
      new Promise<'hang'>((resolve) => setTimeout(() => resolve('hang'), DEADLINE_MS).unref()),
    ]);

  it.each(channelNames)('%s', { timeout: 180_000 }, async (channel) => {
    const t: Tally = { sent: 0, hangs: [], failures: [] };
    for (const c of fuzzCases(channel, env)) {
      if (c.httpOnly) continue;
      t.sent++;
      try {
        const answer = await invoke(channel, c.value);
        if (answer === 'hang') t.hangs.push(c.name);
        else judgeResult(channel, c, answer, t);
      } catch (e) {
        t.failures.push(`${c.name}: router threw ${e instanceof Error ? e.message : String(e)}`);
      }
    }
    expect(t.sent).toBeGreaterThan(10);
    expect(t.hangs).toEqual([]);
    expect(t.failures).toEqual([]);
    await listStillAnswers(invoke);
  });

  it('left no prototype pollution and no unhandled error behind', () => {
    noPollution();
    expect(unhandled).toEqual([]);
  });
});
