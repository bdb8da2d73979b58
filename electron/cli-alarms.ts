/**
 * `northbound alarms follow|export` (issue 12): a console running as an alarm collector on a
 * server, with the app's own services (AlarmService, AlarmSource, alarms.db).
 *   follow  consumes a node's alarms into DIR/alarms.db until SIGTERM (or Ctrl-C): from the
 *           broker (--amqp-url, --exchange) with the REST backfill, or by polling (--poll);
 *           a line per state change and one progress line per minute on stderr. With
 *           --database-url instead of --data-dir it is one of a fleet of collectors (issue 24.4):
 *           the team's PostgreSQL, the node's one queue shared, backfills under the node's lock.
 *   export  prints the stored alarms (JSON Lines or CSV) on stdout: of a data folder (offline) or
 *           of a team's PostgreSQL (--database-url).
 * The node's password comes from the environment variable --password-env names, never from the
 * command line; a password in --amqp-url may be given by --amqp-password-env instead.
 */
import type { Command } from 'commander';
import { InvalidArgumentError } from 'commander';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { EventName, EventPayload } from '../shared/contract';
import { DEFAULT_ALARM_EXCHANGE, type AlarmSourceStatus } from '../shared/model/alarms';
import { isAppError } from '../shared/model/errors';
import { amqpUrlWithoutPassword, parseAmqpUrl } from '../shared/model/settings';
import { openTeamDatabase, untilReachable, withDatabaseOptions, type DatabaseFlags } from './cli-database';
import { CliFailure } from './cli-errors';
import { createStreamLogger, registerSecret } from './log';
import { readPemFile } from './net/pem-file';
import type { PgPool } from './store/postgres';

interface FollowFlags extends DatabaseFlags {
  dataDir?: string;
  amqpUrl?: string;
  amqpPasswordEnv?: string;
  exchange: string;
  poll: boolean;
  pollInterval: number;
  node: string;
  username: string;
  passwordEnv: string;
  caFile?: string;
  keepDays: number;
  maxClockSkew: number;
  progressEvery: number;
  logLevel: 'debug' | 'info' | 'warn' | 'error';
}

const seconds = (label: string, min: number, max: number) => (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < min || n > max) throw new InvalidArgumentError(`${label} is a number of seconds from ${min} to ${max}.`);
  return n;
};
const days = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 3650) throw new InvalidArgumentError('the days to keep are a whole number from 1 to 3650.');
  return n;
};

/** The node address: https://host[:port] (the basic-auth port, 9182 by default). */
function nodeAddress(text: string): { host: string; port: number; origin: string } {
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    throw new CliFailure(`--node ${text} is not an address; give the node's basic-auth address, e.g. https://director.example.com:9182.`, 2);
  }
  if (u.protocol !== 'https:') throw new CliFailure('--node must be an https:// address (the node’s basic-auth port, 9182 by default).', 2);
  const port = u.port ? Number(u.port) : 9182;
  return { host: u.hostname.replace(/^\[|\]$/g, ''), port, origin: `${u.hostname}:${port}` };
}

function statusLine(s: AlarmSourceStatus, added: number, sinceS: number): string {
  const parts = [
    `${new Date().toISOString()} ${s.source} ${s.state}${s.connected ? '' : ' (not connected)'}`,
    `+${added} changes in ${Math.round(sinceS)} s`,
    `stored ${s.stored.alarms} alarms, ${s.stored.changes} changes`,
    `lag ${s.lagMs === null ? '–' : `${Math.round(s.lagMs)} ms`}`,
  ];
  if (s.source === 'amqp') parts.push(`backlog ${s.backlog ?? '–'}`);
  parts.push(`set aside ${s.setAside}`, `unreadable ${s.unreadable}`);
  if (s.error) parts.push(`last error: ${s.error}`);
  return `alarms follow: ${parts.join(', ')}\n`;
}

export function addAlarmCommands(program: Command): void {
  const alarms = program.command('alarms').description('Alarms of a management node: follow them into a store, export the store.');

  const follow = alarms
    .command('follow')
    .description('Consume a node’s alarms into DATA-DIR/alarms.db, or a team’s PostgreSQL, until SIGTERM or Ctrl-C: from RabbitMQ with a REST backfill, or by polling the node.')
    .option('--data-dir <dir>', 'where alarms.db lives (created if missing)')
    .option('--amqp-url <url>', 'RabbitMQ address, amqp[s]://user@host:port/vhost')
    .option('--amqp-password-env <name>', 'environment variable holding the RabbitMQ password (instead of writing it in --amqp-url)')
    .option('--exchange <name>', 'the topic exchange the node publishes alarm events to', DEFAULT_ALARM_EXCHANGE)
    .option('--poll', 'no broker: poll the node’s alarm list for changes', false)
    .option('--poll-interval <seconds>', 'seconds between two polls', seconds('the poll interval', 0.1, 3600), 2)
    .requiredOption('--node <url>', 'the node’s basic-auth address, e.g. https://director.example.com:9182')
    .requiredOption('--username <user>', 'the node user')
    .requiredOption('--password-env <name>', 'environment variable holding the node user’s password')
    .option('--ca-file <pem>', 'trust this CA certificate file for the node instead of the system CAs')
    .option('--keep-days <n>', 'days of alarm history kept in the store', days, 30)
    .option('--max-clock-skew <seconds>', 'alarm times more than this after now are set aside as implausible (the cursor never moves past it)', seconds('the clock skew', 1, 30 * 86_400), 86_400)
    .option('--progress-every <seconds>', 'seconds between two progress lines', seconds('the progress period', 1, 86_400), 60)
    .option('--log-level <level>', 'the service log on stderr (JSON lines): debug, info, warn or error', 'warn');
  withDatabaseOptions(follow)
    .addHelpText(
      'after',
      [
        '',
        'Exactly one of --amqp-url and --poll, and one of --data-dir and --database-url. Stops cleanly',
        'on SIGTERM or Ctrl-C; a message is acknowledged to the broker only after it is stored, so a',
        'kill loses nothing. With --database-url, collectors on several hosts share the node’s one',
        'queue (northbound.alarms.fleet.node:<host>:<port>) and store each change once.',
        'Exit codes: 0 stopped, 1 failed (e.g. the node refused the credentials), 2 wrong options.',
        '',
        'Example, against `northbound simulate --alarms --amqp-url amqp://guest:guest@127.0.0.1:5672`:',
        '  export NB_PW=<the operator password from simulate’s JSON line>',
        '  northbound alarms follow --data-dir ./collector --amqp-url amqp://guest:guest@127.0.0.1:5672 \\',
        '    --node https://127.0.0.1:9182 --username operator --password-env NB_PW --ca-file <alarms.caFile>',
      ].join('\n'),
    )
    .action(async (flags: FollowFlags) => runFollow(flags));

  withDatabaseOptions(
    alarms
      .command('export')
      .description('Print the stored alarms on stdout (JSON Lines or CSV), newest change first: of a data folder (offline) or of a team’s PostgreSQL.')
      .option('--data-dir <dir>', 'where alarms.db lives'),
  )
    .option('--since <time>', 'only alarms changed since: an ISO date or time, epoch ms, or a duration back (90m, 24h, 7d)')
    .requiredOption('--format <format>', 'jsonl or csv')
    .action(async (flags: DatabaseFlags & { dataDir?: string; since?: string; format: string }) => {
      if (flags.format !== 'jsonl' && flags.format !== 'csv') throw new CliFailure('--format is jsonl or csv.', 2);
      if (!flags.dataDir === !flags.databaseUrl) throw new CliFailure('Give either --data-dir (a desk\'s alarms) or --database-url (a team\'s), not both.', 2);
      const { parseSince, alarmExportPieces } = await import('./alarms/export');
      const since = flags.since === undefined ? 0 : parseSince(flags.since, Date.now());
      if (since === undefined) throw new CliFailure('--since is an ISO date or time (2026-05-01, 2026-05-01T12:00:00Z), epoch milliseconds, or a duration back from now (90m, 24h, 7d).', 2);
      const store = flags.databaseUrl ? await openTeamAlarms({ ...flags, databaseUrl: flags.databaseUrl }, 'northbound alarms export') : await openDeskAlarms(flags.dataDir!);
      try {
        for await (const piece of alarmExportPieces(store, flags.format, since, flags.dataDir ? await connectionNames(flags.dataDir) : new Map())) {
          if (!process.stdout.write(piece.text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
        }
      } finally {
        await store.close();
      }
    });
}

async function openDeskAlarms(dataDir: string) {
  const file = path.join(dataDir, 'alarms.db');
  if (!existsSync(file)) throw new CliFailure(`There is no alarm store in ${dataDir} (no alarms.db): run \`northbound alarms follow --data-dir ${dataDir} …\` first.`, 1);
  const { openAlarmStore } = await import('./alarms/store/sqlite-alarm-store');
  return openAlarmStore(file);
}

/** The team's alarm store (its migrations applied); closing it ends its pool. */
async function openTeamAlarms(flags: DatabaseFlags & { databaseUrl: string }, applicationName: string) {
  const { openPgAlarmStore } = await import('./alarms/store/pg-alarm-store');
  return (await openTeamDatabase(flags, { applicationName, max: 6 }, (pool) => openPgAlarmStore(pool, { ownsPool: true }))).value;
}

/** What a fleet collector says on stderr when its database goes away and when it is back (C-69). */
const teamNotices = {
  waiting: (error: string) => process.stderr.write(`alarms follow: the team's database could not be reached (${error}); waiting for it. Nothing is acknowledged to the broker until it is stored.\n`),
  back: () => process.stderr.write("alarms follow: the team's database is reachable again; going on.\n"),
};

/** The team's alarm store for a collector, waiting (saying so) while the database cannot be reached; undefined when stopped meanwhile. */
async function waitForTeamAlarms(flags: DatabaseFlags & { databaseUrl: string }, stopping: () => boolean) {
  const { openPgAlarmStore } = await import('./alarms/store/pg-alarm-store');
  const db = await openTeamDatabase(flags, { applicationName: 'northbound alarms follow', max: 6 }, async (pool) => pool);
  try {
    const store = await untilReachable(() => openPgAlarmStore(db.pool, { ownsPool: true }), teamNotices, stopping, 5_000);
    if (!store) await db.close();
    return store ? { store, pool: db.pool } : undefined;
  } catch (e) {
    await db.close().catch(() => undefined);
    throw new CliFailure(`The team's database at ${flags.databaseUrl} could not be read: ${e instanceof Error ? e.message : String(e)}.`, 1);
  }
}

async function runFollow(flags: FollowFlags): Promise<void> {
  if (Boolean(flags.amqpUrl) === flags.poll) throw new CliFailure('Give exactly one of --amqp-url (consume from RabbitMQ) and --poll (poll the node).', 2);
  if (!flags.dataDir === !flags.databaseUrl) throw new CliFailure('Give either --data-dir (alarms.db on this host) or --database-url (a team\'s PostgreSQL, shared by a fleet of collectors), not both.', 2);
  if (!['debug', 'info', 'warn', 'error'].includes(flags.logLevel)) throw new CliFailure('--log-level is debug, info, warn or error.', 2);
  const node = nodeAddress(flags.node);
  const password = process.env[flags.passwordEnv];
  if (!password) throw new CliFailure(`The environment variable ${flags.passwordEnv} is empty; export the node user's password in it.`, 2);
  registerSecret(password);
  let amqpUrl: string | undefined;
  if (flags.amqpUrl) {
    const parsed = parseAmqpUrl(flags.amqpUrl);
    if (!parsed.ok) throw new CliFailure(`Invalid --amqp-url: ${parsed.message}`, 2);
    const u = new URL(flags.amqpUrl.trim());
    if (flags.amqpPasswordEnv) {
      const pw = process.env[flags.amqpPasswordEnv];
      if (!pw) throw new CliFailure(`The environment variable ${flags.amqpPasswordEnv} is empty; export the RabbitMQ password in it.`, 2);
      u.password = encodeURIComponent(pw);
    }
    registerSecret(decodeURIComponent(u.password));
    amqpUrl = u.toString();
  }
  let caPem: string | undefined;
  if (flags.caFile) {
    try {
      caPem = await readPemFile(flags.caFile);
    } catch (e) {
      throw new CliFailure(`${e instanceof Error ? e.message : String(e)} (--ca-file)`, 2);
    }
  }
  const logger = createStreamLogger(process.stderr, flags.logLevel);
  const [{ openAlarmStore }, { AlarmService }, { MgmtClient }] = await Promise.all([import('./alarms/store/sqlite-alarm-store'), import('./alarms/service'), import('./mgmt')]);
  const sourceId = `node:${node.origin}`;
  const futureSkewMs = Math.round(flags.maxClockSkew * 1000);
  // Stop on a signal from here on: a collector waiting for its database stops as cleanly as one running.
  let stopping = false;
  let stop!: () => void;
  const stopped = new Promise<void>((resolve) => (stop = () => ((stopping = true), resolve())));
  process.once('SIGTERM', () => stop());
  process.once('SIGINT', () => stop());
  // The team's database first: a URL that cannot work ends the command before the node is asked;
  // one that cannot be reached yet is waited for (C-69).
  const teamDb = flags.databaseUrl ? await waitForTeamAlarms({ ...flags, databaseUrl: flags.databaseUrl }, () => stopping) : undefined;
  const team = teamDb?.store;
  if (flags.databaseUrl && !team) {
    process.stderr.write('alarms follow: stopped.\n');
    return;
  }
  const client = new MgmtClient({
    profile: { id: sourceId, host: node.host, basicPort: node.port, oauthPort: node.port, authMode: 'basic', username: flags.username, tls: caPem ? { mode: 'custom-ca', caName: flags.caFile, caPem } : { mode: 'system' } },
    secrets: { getPassword: async () => password, getClientSecret: async () => undefined },
    logger: logger.child('mgmt'),
  });
  try {
    await client.signIn();
  } catch (e) {
    await client.close();
    await team?.close();
    const hint = isAppError(e) ? ` ${e.hint}` : '';
    throw new CliFailure(`The node at ${flags.node} refused or could not be reached: ${e instanceof Error ? e.message : String(e)}.${hint}`, 1);
  }
  const store = team ?? openAlarmStore(path.join(flags.dataDir!, 'alarms.db'), { futureSkewMs });
  const where = team ? `the team's database ${flags.databaseUrl}` : path.join(flags.dataDir!, 'alarms.db');
  let added = 0;
  let lastState = '';
  /** When this collector last stored a change (its Fleet card row, C-89). */
  let lastStoredAt: string | null = null;
  const service: InstanceType<typeof AlarmService> = new AlarmService({
    store,
    requestFor: () => (method, p, body, opts) => client.request(method, p, body, opts),
    requireSignedIn: () => undefined,
    broker: async () => (amqpUrl ? { url: async () => amqpUrl!, broker: amqpUrlWithoutPassword(amqpUrl), exchange: flags.exchange } : undefined),
    emit: <E extends EventName>(event: E, payload: EventPayload<E>) => {
      if (event === 'alarms.changed') {
        const n = (payload as EventPayload<'alarms.changed'>).changes;
        added += n;
        if (n > 0) lastStoredAt = new Date().toISOString();
      }
      if (event === 'alarms.status') {
        const s = payload as AlarmSourceStatus;
        const key = `${s.source} ${s.state}`;
        if (key !== lastState) {
          lastState = key;
          process.stderr.write(`alarms follow: ${s.source} ${s.state}${s.queue ? ` (queue ${s.queue})` : ''}${s.error ? ` — ${s.error}` : ''}\n`);
        }
      }
    },
    logger: logger.child('alarms'),
    retentionDays: () => flags.keepDays,
    pollIntervalMs: Math.round(flags.pollInterval * 1000),
    futureSkewMs,
    ...(team ? { fleet: { store: team }, onStoreWaiting: (waiting: boolean, error?: string) => (waiting ? teamNotices.waiting(error ?? '') : teamNotices.back()) } : {}),
  });
  service.start();
  process.stderr.write(
    `Following the alarms of ${node.origin} into ${where} ${amqpUrl ? `from ${amqpUrlWithoutPassword(amqpUrl)}, exchange ${flags.exchange}` : `by polling every ${flags.pollInterval} s`}. Stop with SIGTERM or Ctrl-C.\n`,
  );
  // The database may go away between its opening and the source's first reads: waited for too.
  if (team) await untilReachable(() => service.startSource(sourceId), teamNotices, () => stopping, 5_000);
  else await service.startSource(sourceId);
  // Its health for the consoles' Fleet card (C-89): a row in the team's database, a beat every few seconds.
  const health = teamDb ? await collectorHealth(teamDb.pool, sourceId) : undefined;
  const beat = () => (health ? service.status(sourceId).then((s) => health.beat({ state: s.state, connected: s.connected, lagMs: s.lagMs, backlog: s.backlog, lastMessageAt: s.lastMessageAt, lastStoredAt, error: s.error ?? null })).catch(() => undefined) : Promise.resolve());
  const beating = health ? setInterval(() => void beat(), health.everyMs) : undefined;
  void beat();
  let lastLine = performance.now();
  const progress = setInterval(() => {
    const now = performance.now();
    const since = (now - lastLine) / 1000;
    const n = added;
    added = 0;
    lastLine = now;
    void service.status(sourceId).then((s) => process.stderr.write(statusLine(s, n, since)));
  }, flags.progressEvery * 1000);
  await stopped;
  clearInterval(progress);
  if (beating) clearInterval(beating);
  await health?.stopped().catch(() => undefined);
  process.stderr.write(statusLine(await service.status(sourceId), added, (performance.now() - lastLine) / 1000));
  await service.close();
  await client.signOut().catch(() => undefined);
  await client.close();
  process.stderr.write('alarms follow: stopped.\n');
}

/** The collector's row in `fleet_collectors` (host and pid name it); not written while the database is away. */
async function collectorHealth(pool: PgPool, sourceId: string) {
  const [{ CollectorHealth }, os] = await Promise.all([import('./edr/fleet/collectors'), import('node:os')]);
  const health = new CollectorHealth(pool, `${os.hostname()}:${process.pid}`, sourceId);
  await health.register({ host: os.hostname(), pid: process.pid }).catch(() => undefined);
  return health;
}

/** The data folder's connections by id, for the export's `sourceName` (none when it has no settings). */
async function connectionNames(dataDir: string): Promise<Map<string, string>> {
  const { openConfSettings, SETTINGS_FILE } = await import('./store/settings');
  const names = new Map<string, string>();
  if (!existsSync(path.join(dataDir, SETTINGS_FILE))) return names;
  const profiles = openConfSettings(dataDir, createStreamLogger(process.stderr, 'warn')).get<unknown>('profiles');
  for (const p of Array.isArray(profiles) ? profiles : []) {
    const { id, name } = (p ?? {}) as { id?: unknown; name?: unknown };
    if (typeof id === 'string' && typeof name === 'string') names.set(id, name);
  }
  return names;
}
