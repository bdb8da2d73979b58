// @vitest-environment jsdom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createClient } from '../../../renderer/api/client';
import { AppError } from '../../../shared/model/errors';
import type { Bridge } from '../../../shared/contract';
import { MainBridge, closeAll } from './support/main-bridge';

afterEach(closeAll);

/** A transport that answers every call with `answer` (what a broken or hostile main could send). */
function answering(answer: unknown): Bridge & { calls: string[] } {
  const calls: string[] = [];
  return { calls, invoke: (channel) => (calls.push(channel), Promise.resolve(answer)), on: () => () => undefined };
}

describe('contract client', () => {
  it('returns the parsed response of a channel from main', async () => {
    const main = await MainBridge.start();
    await main.call('settings.update', { theme: 'dark' });
    const client = createClient(main);
    await expect(client.invoke('settings.get', {})).resolves.toMatchObject({ theme: 'dark' });
    expect(main.calls).toEqual([{ channel: 'settings.get', request: {} }]);
  });

  it('applies the response schema (defaults filled in)', async () => {
    const bridge = answering({
      ok: true,
      value: [
        {
          client_id: 'c1',
          name: 'ops',
          max_access_tokens: 1,
          max_access_tokens_per_user: 1,
          access_token_validity: 60,
          refresh_token_validity: 60,
          allowed_grant_types: ['password'],
          allowed_source_client_address: { source_type: 'ANYWHERE' },
          enabled: true,
        },
      ],
    });
    const [c] = await createClient(bridge).invoke('oauthClients.list', { profileId: 'p' });
    expect(c?.description).toBe('');
    expect(c?.allowed_source_client_address.ip_address_list).toEqual([]);
    expect(c?.redirect_uris).toEqual([]);
  });

  it('rejects a response outside the channel schema with a typed AppError', async () => {
    const err = await createClient(answering({ ok: true, value: [{ id: 42 }] }))
      .invoke('profiles.list', {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('response.invalid');
    expect((err as AppError).message).toContain('profiles.list');
    expect((err as AppError).details?.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: '0.id' })]));
  });

  it('rejects an answer that is not a result envelope', async () => {
    await expect(createClient(answering({ version: '1' })).invoke('app.info', {})).rejects.toMatchObject({ code: 'response.invalid' });
  });

  it("turns main's { ok: false } into an AppError with code, message, hint and details", async () => {
    const main = await MainBridge.start();
    const node = await main.node();
    const lab = await main.addNodeProfile(node, { name: 'Lab', trust: false });
    const err = await createClient(main)
      .invoke('session.signIn', { profileId: lab.id })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('tls.untrusted');
    expect(e.message).toBe('No certificate of 127.0.0.1 has been trusted for this connection yet.');
    expect(e.hint).toMatch(/fingerprint/);
    expect((e.details?.certificate as { fingerprint256: string }).fingerprint256).toBe(node.fingerprint256);
  });

  it('passes main-side validation errors through with their field issues', async () => {
    const main = await MainBridge.start();
    const err = (await createClient(main)
      .invoke('profiles.delete', { profileId: '' })
      .catch((e: unknown) => e)) as AppError;
    expect(err.code).toBe('request.invalid');
    expect(err.details?.issues).toEqual([{ path: 'profileId', message: 'Choose a connection.' }]);
  });

  it('wraps a failing transport into a friendly AppError', async () => {
    const bridge: Bridge = { invoke: () => Promise.reject(new Error('ipc exploded at foo.js:12')), on: () => () => undefined };
    const err = (await createClient(bridge)
      .invoke('app.info', {})
      .catch((e: unknown) => e)) as AppError;
    expect(err).toBeInstanceOf(AppError);
    expect(err.code).toBe('bridge.failed');
    expect(err.message).not.toContain('foo.js');
  });

  it('refuses channels outside the contract without calling the bridge', async () => {
    const bridge = answering({ ok: true, value: {} });
    const client = createClient(bridge);
    // @ts-expect-error: not a channel of the contract
    await expect(client.invoke('fs.readFile', {})).rejects.toMatchObject({ code: 'channel.unknown' });
    expect(bridge.calls).toHaveLength(0);
  });

  it("delivers main's events and drops payloads outside the schema", async () => {
    const main = await MainBridge.start();
    const node = await main.node();
    const lab = await main.addNodeProfile(node, { name: 'Lab', signIn: false });
    const client = createClient(main);
    const seen = vi.fn();
    const off = client.on('session.changed', seen);
    await main.call('session.signIn', { profileId: lab.id });
    await vi.waitFor(() => expect(seen.mock.calls.at(-1)?.[0]).toMatchObject({ profileId: lab.id, state: 'signed-in' }));
    expect(seen.mock.calls.every(([s]) => (s as { profileId: string }).profileId === lab.id)).toBe(true);
    off();
    expect(main.listenerCount('session.changed')).toBe(0);

    // A payload outside the schema (which main's own hub would never send) is dropped with a warning.
    const listeners = new Set<(p: unknown) => void>();
    const hostile: Bridge = { invoke: () => Promise.resolve(undefined), on: (_e, l) => (listeners.add(l), () => listeners.delete(l)) };
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const dropped = vi.fn();
    createClient(hostile).on('session.changed', dropped);
    for (const l of listeners) l({ profileId: 'p1', state: 'bogus' });
    expect(dropped).not.toHaveBeenCalled();
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });
});
