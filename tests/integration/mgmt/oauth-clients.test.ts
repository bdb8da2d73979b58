/** OAuth client management (spec 4.3, MN-1, MN-7) through the client. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { MgmtSimulator } from '@northbound/simulators/testing';
import type { MgmtClient } from '../../../electron/mgmt/client';
import { clientBody, failure, makeClient, startSim, type ClientSpec } from './helpers';

let sim: MgmtSimulator;
const open: MgmtClient[] = [];

beforeAll(async () => {
  sim = await startSim();
});
afterEach(async () => {
  await Promise.all(open.splice(0).map(async (c) => (await c.signOut().catch(() => undefined), c.close())));
});
afterAll(() => sim.close());

const client = (spec: ClientSpec = {}) => {
  const t = makeClient(sim, spec);
  open.push(t.client);
  return t;
};

describe('OAuth clients', () => {
  it('creates a client: the secret comes back once, beside the client', async () => {
    const { client: admin, logger } = client();
    await admin.signIn();
    const created = await admin.createOAuthClient(clientBody('console-created', { description: 'made by a test', max_access_tokens: 10, max_access_tokens_per_user: 3 }));
    expect(created.clientSecret.length).toBeGreaterThan(10);
    expect(created.client).toMatchObject({ name: 'console-created', description: 'made by a test', max_access_tokens: 10, max_access_tokens_per_user: 3, enabled: true });
    expect(created.client).not.toHaveProperty('client_secret');
    expect(created.client).not.toHaveProperty('registration_access_token');
    expect(sim.getClient(created.client.client_id)).toMatchObject({ name: 'console-created' });
    expect(logger.lines.join('\n')).not.toContain(created.clientSecret);

    // The new client hands out tokens.
    const { client: user } = client({ username: 'operator', clientId: created.client.client_id, clientSecret: created.clientSecret });
    expect((await user.signIn()).state).toBe('signed-in');
  });

  it('updates a client by id', async () => {
    const { client: admin } = client();
    await admin.signIn();
    const { client: c } = await admin.createOAuthClient(clientBody('to-update'));
    const updated = await admin.updateOAuthClient(c.client_id, clientBody('to-update', { description: 'changed', access_token_validity: 600 }));
    expect(updated).toMatchObject({ client_id: c.client_id, description: 'changed', access_token_validity: 600 });
    expect(sim.getClient(c.client_id)).toMatchObject({ description: 'changed', access_token_validity: 600 });
  });

  it('an unknown client ID is "no such client", not the end of the session (invalid_client names the target; a refresh tells)', async () => {
    const { client: admin } = client();
    await admin.signIn();
    const e = await failure(admin.updateOAuthClient('no-such-client-42', clientBody('x')));
    expect(e).toMatchObject({ code: 'not_found', message: expect.stringContaining('no-such-client-42') });
    expect(admin.status().state).toBe('signed-in');
    const { client: c } = await admin.createOAuthClient(clientBody('still-works'));
    expect(c.name).toBe('still-works');
  });

  it('validates the body before sending it', async () => {
    const { client: admin } = client();
    await admin.signIn();
    const before = sim.stats.count('POST', '/auth/admin/clients');
    const e = await failure(admin.createOAuthClient(clientBody('bad name with spaces')));
    expect(e).toMatchObject({ code: 'request.invalid', hint: expect.stringContaining('name') });
    expect(sim.stats.count('POST', '/auth/admin/clients')).toBe(before);
  });

  it('a client that does not allow client_credentials cannot manage clients (MN-1)', async () => {
    const { client: admin } = client();
    await admin.signIn();
    const created = await admin.createOAuthClient(clientBody('plain-client'));
    const { client: viaPlain } = client({ clientId: created.client.client_id, clientSecret: created.clientSecret });
    await viaPlain.signIn();
    const e = await failure(viaPlain.createOAuthClient(clientBody('never')));
    expect(e).toMatchObject({ code: 'oauth.access_forbidden', details: { description: expect.stringContaining('client_credentials') } });
  });

  it('needs an OAuth profile', async () => {
    const { client: basic } = client({ authMode: 'basic' });
    await basic.signIn();
    expect(await failure(basic.createOAuthClient(clientBody('x')))).toMatchObject({ code: 'mgmt.oauth_required', hint: expect.stringContaining('OAuth connection') });
    expect(await failure(basic.updateOAuthClient('id', clientBody('x')))).toMatchObject({ code: 'mgmt.oauth_required' });
  });

  it('needs a session', async () => {
    const { client: admin } = client();
    expect(await failure(admin.createOAuthClient(clientBody('x')))).toMatchObject({ code: 'session.not_signed_in', hint: 'Sign in first.' });
  });
});
