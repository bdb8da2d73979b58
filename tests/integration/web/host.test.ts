import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { createEventHub } from '../../../electron/app/events';
import { createRouter, type Handlers } from '../../../electron/app/router';
import { createMemoryLogger } from '../../../electron/log';
import { startWebHost, type WebHost } from '../../../electron/web/host';
import { rawRequest } from './raw';
import { DEFAULT_SETTINGS } from '../../../shared/model/settings';

/** What the stub answers: a whole settings record, as the contract checks it. */
const SETTINGS = { ...DEFAULT_SETTINGS, theme: 'dark' } as const;

let dir: string;
let host: WebHost;
const sent: string[] = [];
const events = createEventHub(createMemoryLogger());

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nb-host-'));
  await mkdir(path.join(dir, 'static', 'assets'), { recursive: true });
  await writeFile(path.join(dir, 'static', 'index.html'), '<!doctype html><title>NB</title>');
  await writeFile(path.join(dir, 'static', 'assets', 'app.js'), 'console.log(1)');
  await writeFile(path.join(dir, 'outside.txt'), 'do not serve');
  const handlers = { 'settings.get': async () => (SETTINGS) } as unknown as Handlers;
  host = await startWebHost({ router: createRouter(handlers, createMemoryLogger()), events, logger: createMemoryLogger(), staticDir: path.join(dir, 'static'), onSend: (t) => sent.push(t) });
});
afterAll(async () => {
  await host.close();
  await rm(dir, { recursive: true, force: true });
});

const invoke = (channel: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${host.origin}/api/invoke/${channel}`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('browser-mode host', () => {
  it('listens on 127.0.0.1 only and prints a URL carrying the token', () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.url).toBe(`${host.origin}/?token=${host.token}`);
    expect(host.token.length).toBeGreaterThanOrEqual(32);
  });

  it('refuses requests without the token', async () => {
    expect((await fetch(`${host.origin}/`)).status).toBe(401);
    expect((await invoke('settings.get', {})).status).toBe(401);
    expect((await invoke('settings.get', {}, { 'x-northbound-token': 'wrong' })).status).toBe(401);
    expect((await invoke('settings.get', {}, { cookie: `nb_token_${host.port}=wrong` })).status).toBe(401);
  });

  it('never takes the token from the query string of an API call', async () => {
    const res = await fetch(`${host.origin}/api/invoke/settings.get?token=${host.token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ ok: false, error: { code: 'bridge.unauthorized' } });
    const get = await fetch(`${host.origin}/api/invoke/settings.get?token=${host.token}`, { redirect: 'manual' });
    expect(get.status).toBe(401);
    expect(get.headers.get('set-cookie')).toBeNull();
  });

  it('accepts the token from the cookie set for this port', async () => {
    const res = await invoke('settings.get', {}, { cookie: `other=1; nb_token_${host.port}=${host.token}` });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, value: SETTINGS });
  });

  it('answers contract calls with the token, in the Result envelope', async () => {
    const res = await invoke('settings.get', {}, { 'x-northbound-token': host.token });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true, value: SETTINGS });
    const unknown = await invoke('shell.exec', {}, { 'x-northbound-token': host.token });
    expect((await unknown.json()).error.code).toBe('channel.unknown');
  });

  it('refuses another Origin and another Host even with the token', async () => {
    expect((await invoke('settings.get', {}, { 'x-northbound-token': host.token, origin: 'https://evil.example' })).status).toBe(403);
    const http = await import('node:http');
    const status = await new Promise<number>((resolve) => {
      const req = http.request({ host: '127.0.0.1', port: host.port, path: `/?token=${host.token}`, headers: { host: 'attacker.example:80' } }, (r) => resolve(r.statusCode ?? 0));
      req.end();
    });
    expect(status).toBe(403);
  });

  it('turns the opening URL\'s token into an HttpOnly same-site cookie and redirects it out of the address bar', async () => {
    const opening = await fetch(host.url, { redirect: 'manual' });
    expect(opening.status).toBe(303);
    expect(opening.headers.get('location')).toBe('/');
    const cookie = opening.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(new RegExp(`^nb_token_${host.port}=`));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
    const deep = await fetch(`${host.origin}/devices?token=${host.token}&view=x`, { redirect: 'manual' });
    expect(deep.status).toBe(303);
    expect(deep.headers.get('location')).toBe('/devices?view=x');
    const sneaky = await rawRequest(host.port, { path: `/.//evil.example/x?token=${host.token}` });
    expect(sneaky.status).toBe(303);
    expect(sneaky.headers.location).toBe('/evil.example/x');
    const wrong = await fetch(`${host.origin}/?token=wrong`, { redirect: 'manual' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('set-cookie')).toBeNull();

    const page = await fetch(`${host.origin}/`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);
    const asset = await fetch(`${host.origin}/assets/app.js`, { headers: { cookie: cookie.split(';')[0]! } });
    expect(asset.status).toBe(200);
    expect(await asset.text()).toBe('console.log(1)');
  });

  it('lets the page connect to its own origin only', async () => {
    const page = await fetch(`${host.origin}/`, { headers: { 'x-northbound-token': host.token } });
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).toMatch(/connect-src 'self'(;|$)/);
    expect(csp).not.toContain('127.0.0.1');
  });

  it('never serves files outside the renderer folder', async () => {
    const res = await fetch(`${host.origin}/..%2Foutside.txt`, { headers: { 'x-northbound-token': host.token } });
    expect(await res.text()).not.toContain('do not serve');
  });

  it('pushes events over a WebSocket that needs the token and the right Origin', async () => {
    const refused = new WebSocket(`ws://127.0.0.1:${host.port}/api/events`);
    await expect(new Promise((resolve, reject) => { refused.on('open', resolve); refused.on('error', reject); })).rejects.toThrow(/403/);
    const foreign = new WebSocket(`ws://127.0.0.1:${host.port}/api/events`, { origin: 'https://evil.example', headers: { cookie: `nb_token_${host.port}=${host.token}` } });
    await expect(new Promise((resolve, reject) => { foreign.on('open', resolve); foreign.on('error', reject); })).rejects.toThrow(/403/);
    const inQuery = new WebSocket(`ws://127.0.0.1:${host.port}/api/events?token=${host.token}`, { origin: host.origin });
    await expect(new Promise((resolve, reject) => { inQuery.on('open', resolve); inQuery.on('error', reject); })).rejects.toThrow(/403/);

    // The browser sends the page's cookie with the upgrade.
    const ws = new WebSocket(`ws://127.0.0.1:${host.port}/api/events`, { origin: host.origin, headers: { cookie: `nb_token_${host.port}=${host.token}` } });
    await new Promise((resolve, reject) => { ws.on('open', resolve); ws.on('error', reject); });
    const got = new Promise<unknown>((resolve) => ws.once('message', (m) => resolve(JSON.parse(String(m)))));
    events.emit('notice', { level: 'info', message: 'hello' });
    expect(await got).toEqual({ event: 'notice', payload: { level: 'info', message: 'hello' } });
    expect(sent.some((t) => t.includes('"hello"'))).toBe(true);
    ws.close();
  });
});
