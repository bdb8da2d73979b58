/**
 * The RabbitMQ address on the Settings page (issue 10.12), through the real router as the window
 * calls it: the password goes to the vault and never comes back, a change of scheme, host, port
 * or virtual host drops it unless it is typed again, the environment variable overrides the
 * stored address, and a change takes effect for the next publication without a restart.
 */
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { ConnectorStatus } from '../../../shared/contract';
import type { PublicationView } from '../../../shared/model/settings';
import { AMQP_PASSWORD_KEY, AMQP_URL_KEY } from '../../../electron/app/publication-settings';
import { defenderTenant, startDefenderSimulator, type DefenderSimulator } from '@northbound/simulators/testing/defender';
import { startAppHarness, type AppHarness } from '../../support/app-harness';
import { until as untilTrue } from '../../support/until';

const PASSWORD = 'Rabbit-s3cret-Pa55';
let h: AppHarness | undefined;
let defender: DefenderSimulator | undefined;

afterEach(async () => {
  await h?.close();
  await defender?.close();
  h = undefined;
  defender = undefined;
});

/** No answer, event, log line or file of the data folder holds the password in any form. */
async function expectNowhere(app: AppHarness, secret: string) {
  const forms = [secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')];
  for (const f of forms) {
    expect(app.answers.join('\n')).not.toContain(f);
    expect(app.pushed.join('\n')).not.toContain(f);
    expect(app.logs.join('\n')).not.toContain(f);
    for (const file of await app.files()) expect(file.text, file.file).not.toContain(f);
  }
}

const view = (app: AppHarness) => app.call<PublicationView>('publication.get');
const connectUrl = (app: AppHarness) => app.app.edr.publication.connectUrl();

describe('publication.update', () => {
  it('keeps the password in the vault and answers only hasPassword', async () => {
    h = await startAppHarness({ app: { edr: { env: {} } } });
    expect((await view(h)).amqp).toMatchObject({ url: null, hasPassword: false, active: 'none', environmentUrl: null, exchange: 'northbound.zta' });

    const saved = await h.call<PublicationView>('publication.update', { amqpUrl: 'amqp://scores@rabbit.example.com:5672/zta', password: PASSWORD });
    expect(saved.amqp).toEqual({ url: 'amqp://scores@rabbit.example.com:5672/zta', hasPassword: true, active: 'settings', environmentUrl: null, exchange: 'northbound.zta' });
    expect(h.app.edr.publication.configured()).toBe(true);
    // The settings keep the address without the password; the publication gets it from the vault.
    expect(await h.files().then((f) => f.find((x) => x.file.endsWith('settings.json'))?.text)).toContain('"edr.amqpUrl": "amqp://scores@rabbit.example.com:5672/zta"');
    expect(await connectUrl(h)).toBe(`amqp://scores:${PASSWORD}@rabbit.example.com:5672/zta`);
    await expectNowhere(h, PASSWORD);
  });

  it('moves a password written in the address to the vault', async () => {
    h = await startAppHarness({ app: { edr: { env: {} } } });
    const saved = await h.call<PublicationView>('publication.update', { amqpUrl: `amqps://scores:${encodeURIComponent('p@ss:w/rd')}@Rabbit.example.com/` });
    expect(saved.amqp).toMatchObject({ url: 'amqps://scores@Rabbit.example.com/', hasPassword: true });
    expect(await h.app.edr.publication.connectUrl()).toBe('amqps://scores:p%40ss%3Aw%2Frd@Rabbit.example.com/');
    await expectNowhere(h, 'p@ss:w/rd');
  });

  it('keeps the password when only the user changes, drops it when scheme, host, port or virtual host change', async () => {
    h = await startAppHarness({ app: { edr: { env: {} } } });
    const base = 'amqp://scores@rabbit.example.com:5672/zta';
    const cases: Array<[string, boolean]> = [
      ['amqp://other@rabbit.example.com:5672/zta', true],
      // The default port written out, the host in capitals: the same endpoint.
      ['amqp://scores@RABBIT.example.com/zta', true],
      ['amqp://scores@evil.example.net:5672/zta', false],
      ['amqp://scores@rabbit.example.com:5673/zta', false],
      ['amqp://scores@rabbit.example.com:5672/other', false],
      ['amqps://scores@rabbit.example.com:5672/zta', false],
    ];
    for (const [next, kept] of cases) {
      await h.call('publication.update', { amqpUrl: base, password: PASSWORD });
      const after = await h.call<PublicationView>('publication.update', { amqpUrl: next });
      expect(after.amqp.hasPassword, next).toBe(kept);
      expect(await connectUrl(h), next).toBe(kept ? next.replace('@', `:${PASSWORD}@`) : next);
    }
    // Typed again with the new endpoint, it is kept for that one.
    const moved = await h.call<PublicationView>('publication.update', { amqpUrl: 'amqp://scores@evil.example.net:5672/zta', password: 'typed-again-1' });
    expect(moved.amqp.hasPassword).toBe(true);
    expect(await connectUrl(h)).toBe('amqp://scores:typed-again-1@evil.example.net:5672/zta');
    await expectNowhere(h, PASSWORD);
  });

  it('forgets the password on request, and the address with it when the address is removed', async () => {
    h = await startAppHarness({ app: { edr: { env: {} } } });
    await h.call('publication.update', { amqpUrl: 'amqp://scores@rabbit.example.com/', password: PASSWORD });
    expect((await h.call<PublicationView>('publication.update', { amqpUrl: 'amqp://scores@rabbit.example.com/', forgetPassword: true })).amqp.hasPassword).toBe(false);
    await h.call('publication.update', { amqpUrl: 'amqp://scores@rabbit.example.com/', password: PASSWORD });
    const removed = await h.call<PublicationView>('publication.update', { amqpUrl: '' });
    expect(removed.amqp).toMatchObject({ url: null, hasPassword: false, active: 'none' });
    expect(await h.adapters.vault.has(AMQP_PASSWORD_KEY)).toBe(false);
    expect(h.app.edr.publication.configured()).toBe(false);
  });

  it('refuses an address it cannot use, naming what to fix, and stores nothing', async () => {
    h = await startAppHarness({ app: { edr: { env: {} } } });
    const refusals: Array<[unknown, string, RegExp]> = [
      [{ amqpUrl: 'http://rabbit.example.com' }, 'amqpUrl', /starts with http:\/\/; RabbitMQ needs amqp:\/\//],
      [{ amqpUrl: 'amqp://:5672/' }, 'amqpUrl', /has no host/],
      [{ amqpUrl: 'amqp://rabbit:99999/' }, 'amqpUrl', /port must be a number from 1 to 65535/],
      [{ amqpUrl: 'rabbit.example.com' }, 'amqpUrl', /Start the address with amqp:\/\//],
      [{ amqpUrl: 'amqp://rabbit.example.com/', password: PASSWORD }, 'amqpUrl', /Write the user name/],
      [{ amqpUrl: `amqp://u:${PASSWORD}@rabbit.example.com/`, password: 'another-one' }, 'password', /type it in one place/],
      [{ amqpUrl: '', password: PASSWORD }, 'amqpUrl', /address this password is for/],
    ];
    for (const [request, path, message] of refusals) {
      const res = await h.callRaw('publication.update', request);
      expect(res.ok, JSON.stringify(request)).toBe(false);
      expect(res.error?.code).toBe('request.invalid');
      const issues = res.error?.details?.issues as Array<{ path: string; message: string }>;
      expect(issues[0]?.path).toBe(path);
      expect(issues[0]?.message).toMatch(message);
    }
    expect((await view(h)).amqp).toMatchObject({ url: null, hasPassword: false });
    await expectNowhere(h, PASSWORD);
  });

  it('moves a password stored in the settings by an older version to the vault at start', async () => {
    h = await startAppHarness({ app: { edr: { env: {} } } });
    h.adapters.settings.set(AMQP_URL_KEY, `amqp://scores:${PASSWORD}@rabbit.example.com:5672/`);
    await h.app.edr.init();
    expect(h.adapters.settings.get(AMQP_URL_KEY)).toBe('amqp://scores@rabbit.example.com:5672/');
    expect((await view(h)).amqp).toMatchObject({ url: 'amqp://scores@rabbit.example.com:5672/', hasPassword: true });
    expect(await connectUrl(h)).toBe(`amqp://scores:${PASSWORD}@rabbit.example.com:5672/`);
  });
});

describe('NORTHBOUND_AMQP_URL', () => {
  it('overrides the stored address, and the page is told so without its password', async () => {
    h = await startAppHarness({ app: { edr: { env: { NORTHBOUND_AMQP_URL: `amqp://ops:${PASSWORD}@broker.lab:5672/` } } } });
    await h.call('publication.update', { amqpUrl: 'amqp://scores@rabbit.example.com/', password: 'stored-pass-1' });
    const v = await view(h);
    expect(v.amqp).toEqual({ url: 'amqp://scores@rabbit.example.com/', hasPassword: true, environmentUrl: 'amqp://ops@broker.lab:5672/', active: 'environment', exchange: 'northbound.zta' });
    expect(await connectUrl(h)).toBe(`amqp://ops:${PASSWORD}@broker.lab:5672/`);
    await expectNowhere(h, PASSWORD);
  });

  it('says when the environment variable is not a usable address', async () => {
    h = await startAppHarness({ app: { edr: { env: { NORTHBOUND_AMQP_URL: 'rabbit:5672' } } } });
    expect((await view(h)).amqp.problem).toMatch(/^NORTHBOUND_AMQP_URL is not a usable address: Start the address with amqp:\/\//);
    await expect(connectUrl(h)).rejects.toThrow(/NORTHBOUND_AMQP_URL/);
  });
});

/** A TCP port that refuses connections: listened on once, then closed. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as net.AddressInfo).port;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('the next publication', () => {
  it('uses an address saved while the app runs (no restart), and the scores waiting for a target go to it', async () => {
    const tenant = defenderTenant({ hosts: 12, seed: 5 });
    defender = await startDefenderSimulator({ tenants: [tenant] });
    h = await startAppHarness({ app: { edr: { env: {}, publishDelayMs: 20, firstPullDelayMs: 3_600_000 } } });
    const app = h;
    const saved = await app.call<{ id: string }>('connectors.save', {
      vendor: 'defender',
      tenantId: tenant.tenantId,
      clientId: tenant.clientId,
      clientSecret: tenant.clientSecret,
      pollIntervalMinutes: 60,
      apiUrl: defender.apiUrl,
      idpUrl: defender.idpUrl,
      tls: { mode: 'custom-ca', caName: 'simulator.pem', caPem: defender.certificatePem },
    });
    const until = (done: (c: ConnectorStatus) => boolean): Promise<ConnectorStatus> =>
      untilTrue(
        'the connector in the awaited state',
        async () => {
          const c = (await app.call<ConnectorStatus[]>('connectors.list')).find((x) => x.id === saved.id)!;
          return done(c) && c;
        },
        30_000,
      );
    const { cycleId } = await app.call<{ cycleId: number }>('connectors.pollNow', { connectorId: saved.id });
    const waiting = await until((c) => c.lastCycle?.id === cycleId && c.lastCycle.publishError !== undefined);
    expect(waiting.lastCycle?.publishError).toMatch(/^No publication target/);

    // A broker that is not there: the attempt made right after the save names the RabbitMQ target.
    const port = await closedPort();
    await app.call('publication.update', { amqpUrl: `amqp://scores@127.0.0.1:${port}/`, password: PASSWORD });
    const tried = await until((c) => c.lastCycle?.publishError?.includes('amqp:northbound.zta') === true);
    expect(tried.lastCycle).toMatchObject({ id: cycleId, publishedAt: null });
    expect(tried.lastCycle?.publishError).toMatch(/ECONNREFUSED/);
    await expectNowhere(app, PASSWORD);
  }, 60_000);
});
