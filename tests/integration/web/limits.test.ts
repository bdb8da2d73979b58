/** Browser-mode host: body limits per channel (413 in the contract's error shape), bad addresses and bad frames. */
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { channels, DEFAULT_MAX_REQUEST_BYTES, ResultShape } from '../../../shared/contract';
import { createEventHub } from '../../../electron/app/events';
import { createRouter, type Handlers } from '../../../electron/app/router';
import { createMemoryLogger } from '../../../electron/log';
import { startWebHost, type WebHost } from '../../../electron/web/host';
import { createHttpBridge } from '../../../renderer/api/http-bridge';
import { clientFrame, rawRequest, rawWebSocket } from './raw';
import { DEFAULT_SETTINGS } from '../../../shared/model/settings';

/** What the stub answers: a whole settings record, as the contract checks it. */
const SETTINGS = { ...DEFAULT_SETTINGS, theme: 'dark' } as const;

let dir: string;
let host: WebHost;
const seen: { rows?: number; textLength?: number } = {};

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nb-limits-'));
  await mkdir(path.join(dir, 'static'), { recursive: true });
  await writeFile(path.join(dir, 'static', 'index.html'), '<!doctype html><title>NB</title>');
  const handlers = {
    'settings.get': async () => (SETTINGS),
    'settings.update': async () => (SETTINGS),
    'onboarding.start': async (req: { rows: unknown[] }) => {
      seen.rows = req.rows.length;
      throw Object.assign(new Error('stop here'), { name: 'Stop' });
    },
    'connectors.importBulk': async (req: { text?: string }) => {
      seen.textLength = req.text?.length;
      return [];
    },
  } as unknown as Handlers;
  host = await startWebHost({ router: createRouter(handlers, createMemoryLogger()), events: createEventHub(createMemoryLogger()), logger: createMemoryLogger(), staticDir: path.join(dir, 'static') });
});
afterAll(async () => {
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

const auth = () => ({ 'content-type': 'application/json', 'x-northbound-token': host.token });
const post = (channel: string, body: BodyInit, init: RequestInit = {}) =>
  fetch(`${host.origin}/api/invoke/${channel}`, { method: 'POST', headers: auth(), body, signal: AbortSignal.timeout(30_000), ...init });
const stillAnswers = async () => expect(await (await post('settings.get', '{}')).json()).toEqual({ ok: true, value: SETTINGS });

/** A bulk row whose fields fill DeviceRecord's maxima with 3-byte UTF-8 characters. */
const fullRow = (line: number) => ({
  line,
  device: {
    deviceName: 'd'.repeat(63),
    siteId: '999999999',
    orgName: '€'.repeat(128),
    serialNumber: '€'.repeat(64),
    deviceGroup: '€'.repeat(128),
    locationInfo: { country: 'DE', latitude: '-89.123456789012', longitude: '-179.12345678901' },
  },
});

describe('request body limits', () => {
  it('gives the bulk channels the size their schema allows, everything else 1 MiB', () => {
    expect(channels['settings.update'].maxBytes).toBe(DEFAULT_MAX_REQUEST_BYTES);
    expect(DEFAULT_MAX_REQUEST_BYTES).toBe(1024 * 1024);
    const rows = Array.from({ length: 20_000 }, (_, i) => fullRow(i + 2));
    const onboarding = Buffer.byteLength(JSON.stringify({ profileId: 'p'.repeat(64), rows, dryRun: false, deploy: true, concurrency: 10 }));
    expect(onboarding).toBeLessThan(channels['onboarding.start'].maxBytes);
    // 16 Mi characters of 3-byte UTF-8, plus the rest of the request.
    const frame = Buffer.byteLength(JSON.stringify({ source: 'document', name: 'n'.repeat(255), text: '' }));
    expect(frame + 3 * 16 * 1024 * 1024).toBeLessThan(channels['connectors.importBulk'].maxBytes);
  });

  it('answers 413 in the error shape, fully written (no reset), for a body over the limit', async () => {
    const res = await post('settings.update', JSON.stringify({ theme: 'x'.repeat(2 * 1024 * 1024) }));
    expect(res.status).toBe(413);
    expect(res.headers.get('connection')).toBe('close');
    const body = ResultShape.parse(await res.json());
    expect(body).toMatchObject({ ok: false, error: { code: 'request.too_large', message: expect.stringContaining('1 MiB'), hint: expect.any(String) } });
    await stillAnswers();
  });

  it('answers 413 for a chunked body (no Content-Length) once it passes the limit', async () => {
    let sent = 0;
    const stream = new ReadableStream<Uint8Array>({
      pull(c) {
        if (sent > 4 * 1024 * 1024) return c.close();
        sent += 64 * 1024;
        c.enqueue(new Uint8Array(64 * 1024).fill(0x20));
      },
    });
    const res = await post('settings.update', stream, { duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('request.too_large');
    await stillAnswers();
  });

  it('accepts 20,000 onboarding rows (≈4.4 MB) and a 6 MB connector document', async () => {
    const rows = Array.from({ length: 20_000 }, (_, i) => ({ line: i + 2, device: { deviceName: `dev-${i}`, siteId: String(i + 1), orgName: 'Acme Corporation', serialNumber: `SN-${i}-ABCDEF`, deviceGroup: 'branch-offices', locationInfo: { country: 'DE', latitude: '52.5200', longitude: '13.4050' } } }));
    const body = JSON.stringify({ profileId: 'p1', rows });
    expect(Buffer.byteLength(body)).toBeGreaterThan(2 * 1024 * 1024);
    const res = await post('onboarding.start', body);
    expect(res.status).toBe(200);
    expect(seen.rows).toBe(20_000);
    const doc = await post('connectors.importBulk', JSON.stringify({ source: 'document', text: '€'.repeat(2 * 1024 * 1024) }));
    expect(doc.status).toBe(200);
    expect(await doc.json()).toEqual({ ok: true, value: [] });
    expect(seen.textLength).toBe(2 * 1024 * 1024);
  });

  it('gives the renderer a typed too-large error with the host\'s message', async () => {
    const bridge = createHttpBridge({ token: host.token, origin: host.origin, fetch: globalThis.fetch, WebSocket: WebSocket as unknown as typeof globalThis.WebSocket });
    const result = await bridge.invoke('settings.update', { theme: 'x'.repeat(2 * 1024 * 1024) });
    expect(result).toMatchObject({ ok: false, error: { code: 'request.too_large', message: 'The request is larger than the 1 MiB this action accepts.' } });
  });

  it('answers 400 to a body that is not UTF-8', async () => {
    const res = await post('settings.update', new Uint8Array(Buffer.concat([Buffer.from('{"theme":"'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('"}')])));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'request.invalid', message: expect.stringMatching(/UTF-8/) } });
  });
});

describe('bad addresses', () => {
  it('answers 400, not 500, to a broken percent-escape in a channel or a file path', async () => {
    const api = await rawRequest(host.port, { method: 'POST', path: '/api/invoke/%E0%A4%A', headers: auth(), body: '{}' });
    expect(api.status).toBe(400);
    expect(ResultShape.parse(JSON.parse(api.body))).toMatchObject({ ok: false, error: { code: 'request.invalid' } });
    const file = await rawRequest(host.port, { path: '/%zz', headers: { 'x-northbound-token': host.token } });
    expect(file.status).toBe(400);
  });

  it('answers an unknown channel or API path in the error shape, below 500', async () => {
    const unknown = await post('no.such.channel', '{}');
    expect(unknown.status).toBeLessThan(500);
    expect(await unknown.json()).toMatchObject({ ok: false, error: { code: 'channel.unknown' } });
    const proto = await post('__proto__', '{}');
    expect(proto.status).toBeLessThan(500);
    expect((await proto.json()).ok).toBe(false);
    const other = await post('../events', '{}');
    expect(other.status).toBeLessThan(500);
  });
});

describe('bad WebSocket frames', () => {
  // Without an 'error' listener on the socket, ws re-throws these as an uncaught exception (the process would die).
  const uncaught: unknown[] = [];
  const record = (e: unknown) => uncaught.push(e);
  beforeAll(() => process.on('uncaughtException', record));
  afterAll(() => process.off('uncaughtException', record));
  const cases: Array<[string, Buffer, number]> = [
    ['a text frame over 64 KiB', clientFrame(0x1, Buffer.alloc(100 * 1024, 0x61)), 1009],
    ['a 3-byte text frame of invalid UTF-8', clientFrame(0x1, Buffer.from([0xe0, 0x80, 0x80])), 1007],
  ];
  it.each(cases)('closes the socket on %s and keeps serving', async (_name, frame, code) => {
    const ws = await rawWebSocket(host.port, { 'x-northbound-token': host.token, origin: host.origin });
    expect(ws.statusLine).toContain('101');
    ws.socket.write(frame);
    expect(await ws.closed()).toBe(code);
    await stillAnswers();
    expect(uncaught).toEqual([]);
  });

  it('ignores a binary frame on the push-only socket', async () => {
    const ws = await rawWebSocket(host.port, { 'x-northbound-token': host.token, origin: host.origin });
    ws.socket.write(clientFrame(0x2, Buffer.from([0, 1, 2, 255])));
    await stillAnswers();
    ws.socket.end(clientFrame(0x8, Buffer.from([0x03, 0xe8])));
    expect(await ws.closed()).toBe(1000);
  });
});
