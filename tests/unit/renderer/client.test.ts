// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { createClient } from '../../../renderer/api/client';
import { AppError } from '../../../shared/model/errors';
import type { Bridge } from '../../../shared/contract';
import { FakeBridge, FP_A, makeProfile } from './support/fake-bridge';

describe('contract client', () => {
  it('returns the parsed response of a channel', async () => {
    const bridge = new FakeBridge({ settings: { theme: 'dark' } });
    const client = createClient(bridge);
    await expect(client.invoke('settings.get', {})).resolves.toEqual({ theme: 'dark' });
    expect(bridge.calls).toEqual([{ channel: 'settings.get', request: {} }]);
  });

  it('applies the response schema (defaults filled in)', async () => {
    const bridge = new FakeBridge().override('oauthClients.list', () => ({
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
    }));
    const [c] = await createClient(bridge).invoke('oauthClients.list', { profileId: 'p' });
    expect(c?.description).toBe('');
    expect(c?.allowed_source_client_address.ip_address_list).toEqual([]);
    expect(c?.redirect_uris).toEqual([]);
  });

  it('rejects a response outside the channel schema with a typed AppError', async () => {
    const bridge = new FakeBridge().override('profiles.list', () => ({ ok: true, value: [{ id: 42 }] }));
    const err = await createClient(bridge)
      .invoke('profiles.list', {})
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('response.invalid');
    expect((err as AppError).message).toContain('profiles.list');
    expect((err as AppError).details?.issues).toEqual(expect.arrayContaining([expect.objectContaining({ path: '0.id' })]));
  });

  it('rejects an answer that is not a result envelope', async () => {
    const bridge = new FakeBridge().override('app.info', () => ({ version: '1' }));
    await expect(createClient(bridge).invoke('app.info', {})).rejects.toMatchObject({ code: 'response.invalid' });
  });

  it('turns { ok: false } into AppError.fromShape with code, message, hint and details', async () => {
    const bridge = new FakeBridge({ profiles: [makeProfile({ id: 'p1', name: 'Lab', tls: { mode: 'pinned' } })] });
    const err = await createClient(bridge)
      .invoke('session.signIn', { profileId: 'p1' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    const e = err as AppError;
    expect(e.code).toBe('tls.untrusted');
    expect(e.message).toBe('mgmt.example.net presents a certificate that is not trusted yet.');
    expect(e.hint).toBe('Compare its fingerprint with the node and trust it.');
    expect((e.details?.certificate as { fingerprint256: string }).fingerprint256).toBe(FP_A);
  });

  it('passes main-side validation errors through with their field issues', async () => {
    const bridge = new FakeBridge();
    const err = (await createClient(bridge)
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
    const bridge = new FakeBridge();
    const client = createClient(bridge);
    // @ts-expect-error: not a channel of the contract
    await expect(client.invoke('fs.readFile', {})).rejects.toMatchObject({ code: 'channel.unknown' });
    expect(bridge.calls).toHaveLength(0);
  });

  it('delivers valid events and drops payloads outside the schema', () => {
    const bridge = new FakeBridge();
    const client = createClient(bridge);
    const seen = vi.fn();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const off = client.on('session.changed', seen);
    bridge.emit('session.changed', { profileId: 'p1', state: 'signed-in', authMode: 'basic' });
    (bridge as unknown as { emit(e: string, p: unknown): void }).emit('session.changed', { profileId: 'p1', state: 'bogus' });
    expect(seen).toHaveBeenCalledTimes(1);
    expect(seen.mock.calls[0]?.[0]).toMatchObject({ profileId: 'p1', state: 'signed-in' });
    expect(warn).toHaveBeenCalled();
    off();
    expect(bridge.listenerCount('session.changed')).toBe(0);
    warn.mockRestore();
  });
});
