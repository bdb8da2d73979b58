/**
 * A team's collector fleet from the command line (issue 24.2-24.3):
 *   northbound team init --database-url URL --key-file F          schema, roles, the workers' key pair
 *   northbound team connectors import --database-url URL --file F  register connectors (secrets sealed)
 *   northbound team status --database-url URL                      connectors' claims and the workers (JSON)
 *   northbound worker --database-url URL --amqp-url URL --key-file F [--concurrency N]
 * The database password comes from NORTHBOUND_DATABASE_PASSWORD or --database-password-file, the
 * broker's from the variable --amqp-password-env names; never from the command line.
 */
import type { Command } from 'commander';
import { readFileSync } from 'node:fs';
import { openTeamDatabase, untilReachable, withDatabaseOptions } from './cli-database';
import { CliFailure, whole } from './cli-errors';
import { createStreamLogger, registerSecret } from './log';
import { parseAmqpUrl } from '../shared/model/settings';
import { AppError } from '../shared/model/errors';
import type { PgPool } from './store/postgres';

interface DbFlags {
  databaseUrl: string;
  databasePasswordFile?: string;
  databaseCaFile?: string;
}

const dbOptions = (cmd: Command) => withDatabaseOptions(cmd, { required: true });

const failure = (e: unknown, code: 1 | 2) => new CliFailure(e instanceof AppError ? `${e.message} ${e.hint}`.trim() : e instanceof Error ? e.message : String(e), code);

/** A pool on the team's database (cli-database.ts: exit 2 for a URL that cannot work). */
async function openPool(flags: DbFlags, name: string, max = 4): Promise<PgPool> {
  return (await openTeamDatabase(flags, { applicationName: name, max }, async (pool) => pool)).pool;
}

/** Every store's migrations, in the order team init applies them. */
export async function storeMigrations(): Promise<Array<readonly [string, (pool: PgPool) => Promise<unknown>]>> {
  const [{ openPgActivityStore }, { migrateFleet }, { openPgEdrStore }, { openPgAlarmStore }] = await Promise.all([
    import('./store/activity-pg'),
    import('./edr/fleet/fleet-connectors'),
    import('./edr/store/edr-pg'),
    import('./alarms/store/pg-alarm-store'),
  ]);
  return [
    ['activity', (p) => openPgActivityStore(p)],
    ['edr', (p) => openPgEdrStore(p)],
    ['alarms', (p) => openPgAlarmStore(p)],
    ['fleet', migrateFleet],
  ];
}

/** amqp://user@host with the password from the named variable (never on the command line). */
export function amqpUrlOf(url: string, passwordEnv: string | undefined): string {
  const parsed = parseAmqpUrl(url);
  if (!parsed.ok) throw new CliFailure(`Invalid --amqp-url: ${parsed.message}`, 2);
  const u = new URL(url.trim());
  if (u.password) throw new CliFailure('--amqp-url carries a password; remove it (command lines are visible to other users) and export it in the variable --amqp-password-env names.', 2);
  if (passwordEnv) {
    const pw = process.env[passwordEnv];
    if (!pw) throw new CliFailure(`The environment variable ${passwordEnv} is empty; export the RabbitMQ password in it.`, 2);
    registerSecret(pw);
    u.password = encodeURIComponent(pw);
  }
  return u.toString();
}

export function addTeamCommands(program: Command): void {
  const team = program.command('team').description("A team's collector fleet: its PostgreSQL schema and roles, its connectors, its status.");
  dbOptions(team.command('init'))
    .description("Create or upgrade the team's schema, the roles northbound_worker, northbound_console and northbound_admin, and the workers' key pair. Run as the database owner.")
    .requiredOption('--key-file <file>', "where to write the workers' private key (0600) when the team has none; copy it to each worker host")
    .action(async (flags: DbFlags & { keyFile: string }) => {
      const pool = await openPool(flags, 'northbound team init', 2);
      try {
        const { teamInit } = await import('./app/team');
        const r = await teamInit({ pool, keyFile: flags.keyFile, migrations: await storeMigrations() }).catch((e: unknown) => {
          throw failure(e, 1);
        });
        process.stdout.write(`${JSON.stringify(r)}\n`);
        process.stderr.write(
          r.keyCreated
            ? `The workers' private key is in ${flags.keyFile} (owner-only). Copy it to each worker host; keep a backup: without it no stored secret can be opened.\n`
            : "The team has its workers' key already; the key file was left alone.\n",
        );
      } finally {
        await pool.end();
      }
    });

  const connectors = team.command('connectors').description("The team's EDR connectors.");
  dbOptions(connectors.command('import'))
    .description('Register connectors from a bulk document ({"version":1,"connectors":[…]}, as the Connectors page imports); each client secret is sealed to the workers.')
    .requiredOption('--file <file>', 'the bulk document (JSON)')
    .action(async (flags: DbFlags & { file: string }) => {
      let doc: unknown;
      try {
        doc = JSON.parse(readFileSync(flags.file, 'utf8'));
      } catch (e) {
        throw new CliFailure(`The document ${flags.file} could not be read as JSON: ${e instanceof Error ? e.message : String(e)}.`, 2);
      }
      const pool = await openPool(flags, 'northbound team connectors import', 2);
      try {
        const { FleetConnectors } = await import('./edr/fleet/fleet-connectors');
        const results = await new FleetConnectors(pool).registerBulk(doc).catch((e: unknown) => {
          throw failure(e, 1);
        });
        for (const r of results) process.stdout.write(`${JSON.stringify(r)}\n`);
        const refused = results.filter((r) => !r.ok).length;
        process.stderr.write(`${results.length - refused} connector(s) registered, ${refused} refused.\n`);
        if (refused) process.exitCode = 1;
      } finally {
        await pool.end();
      }
    });

  dbOptions(team.command('status'))
    .description("Print the fleet's status as JSON: each connector's worker, lease, next poll and last cycle, and each worker's heartbeat.")
    .action(async (flags: DbFlags) => {
      const pool = await openPool(flags, 'northbound team status', 1);
      try {
        const { fleetStatus } = await import('./edr/fleet/claims');
        process.stdout.write(`${JSON.stringify(await fleetStatus(pool).catch((e: unknown) => Promise.reject(failure(e, 1))))}\n`);
      } finally {
        await pool.end();
      }
    });

  dbOptions(program.command('worker'))
    .description("Run a headless worker of the team's fleet: claim due connector polls, poll, score, store and publish them, until SIGTERM.")
    .requiredOption('--amqp-url <url>', 'the RabbitMQ broker the scores are published to: amqp://user@host (no password in it)')
    .option('--amqp-password-env <name>', 'environment variable holding the RabbitMQ password')
    .option('--amqp-exchange <name>', 'the topic exchange scores are published to', 'northbound.zta')
    .requiredOption('--key-file <file>', "the workers' private key team init wrote")
    .option('--concurrency <n>', 'cycles run at once', whole('--concurrency', 1, 64), 4)
    .option('--lease-seconds <n>', 'how long a claim holds without renewal (another worker takes over after)', whole('--lease-seconds', 2, 3600), 60)
    .option('--publish-delay-seconds <n>', 'wait after a cycle before publishing it (the spec: about a minute)', whole('--publish-delay-seconds', 0, 3600), 60)
    .option('--grace-seconds <n>', 'on SIGTERM, how long running cycles may finish before they are handed back', whole('--grace-seconds', 0, 3600), 30)
    .option('--worker-id <id>', 'this worker\'s name in the database (default host:pid:random)')
    .option('--progress-every <seconds>', 'seconds between two progress lines on stderr', whole('--progress-every', 1, 86_400), 60)
    .option('--log-level <level>', 'debug, info, warn or error', 'info')
    .addHelpText('after', ['', 'Exit codes: 0 stopped by SIGTERM or Ctrl-C, 1 could not start, 2 wrong options.'].join('\n'))
    .action(async (flags: DbFlags & { amqpUrl: string; amqpPasswordEnv?: string; amqpExchange: string; keyFile: string; concurrency: number; leaseSeconds: number; publishDelaySeconds: number; graceSeconds: number; workerId?: string; logLevel: string; progressEvery: number }) => {
      if (!['debug', 'info', 'warn', 'error'].includes(flags.logLevel)) throw new CliFailure('--log-level is debug, info, warn or error.', 2);
      const amqpUrl = amqpUrlOf(flags.amqpUrl, flags.amqpPasswordEnv);
      const { readWorkerKeyFile } = await import('./store/sealed-box');
      const keys = await readWorkerKeyFile(flags.keyFile).catch((e: unknown) => Promise.reject(failure(e, 2)));
      const logger = createStreamLogger(process.stderr, flags.logLevel as 'info');
      const pool = await openPool(flags, 'northbound worker', flags.concurrency + 4);
      const [{ FleetWorker }, { openPgEdrStore }, { amqpTarget }, { createRuntime }] = await Promise.all([
        import('./app/fleet-worker'),
        import('./edr/store/edr-pg'),
        import('./edr/targets'),
        import('./edr/runtimes'),
      ]);
      let stop!: () => void;
      let stopping = false;
      const stopped = new Promise<void>((resolve) => (stop = resolve));
      process.once('SIGTERM', () => ((stopping = true), stop()));
      process.once('SIGINT', () => ((stopping = true), stop()));
      // A database not reachable yet (a host starting, a restart) is waited for, saying so; anything else ends the start.
      const say = { waiting: (error: string) => logger.warn('the database could not be reached; waiting for it', { error }), back: () => logger.info('the database is reachable again') };
      const store = await untilReachable(() => openPgEdrStore(pool), say, () => stopping).catch(async (e: unknown) => {
        await pool.end();
        throw failure(e, 1);
      });
      if (!store) {
        await pool.end();
        return;
      }
      const worker = new FleetWorker({
        pool,
        store,
        keys,
        targets: () => [amqpTarget({ url: amqpUrl, exchange: flags.amqpExchange })],
        logger,
        runtimeFor: (c, secret) => createRuntime(c, secret, logger),
        ...(flags.workerId ? { workerId: flags.workerId } : {}),
        concurrency: flags.concurrency,
        leaseMs: flags.leaseSeconds * 1000,
        publishDelayMs: flags.publishDelaySeconds * 1000,
      });
      try {
        await untilReachable(() => worker.start(), say, () => stopping);
      } catch (e) {
        await pool.end().catch(() => undefined);
        throw failure(e, 1);
      }
      process.stderr.write(`worker ${worker.id}: claiming due polls (concurrency ${flags.concurrency}). Stop with SIGTERM or Ctrl-C.\n`);
      const progress = setInterval(() => process.stderr.write(`${worker.progressLine()}\n`), flags.progressEvery * 1000);
      await stopped;
      clearInterval(progress);
      process.stderr.write(`worker ${worker.id}: stopping (running cycles get ${flags.graceSeconds} s, then are handed back).\n`);
      await worker.stop(flags.graceSeconds * 1000);
      await store.close();
      await pool.end();
    });
}
