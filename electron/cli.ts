/**
 * `northbound` — the command line: simulators, browser mode, EDR polling, alarm collection. Plain Node, same services as the app.
 *   northbound simulate [--mgmt-basic-port N] [--mgmt-oauth-port N] [--organizations N] [--devices N] [--edr [--edr-hosts N]]
 *                       [--alarms [--alarm-rate N] [--alarm-burst N/S] [--alarm-flap-every S] [--amqp-url URL] [--alarm-exchange NAME]]
 *   northbound serve [--demo] [--port N] [--data-dir DIR] [--passphrase-env NAME]
 *   northbound edr poll --once --vendor defender|falcon … [--data-dir DIR] (cli-edr.ts)
 *   northbound zta export (--data-dir DIR | --database-url URL) --format csv|json [--customer C] [--platform P] [--band B] (cli-zta.ts)
 *   northbound alarms follow|export … (cli-alarms.ts)
 *   northbound audit export --data-dir DIR [--format jsonl|csv] (cli-audit.ts)
 *   northbound team init|connectors import|status …, northbound worker … (cli-team.ts: a team's collector fleet)
 * Machine-readable output goes to stdout, everything for the person at the terminal to stderr.
 */
import { Command, InvalidArgumentError } from 'commander';
import { existsSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createStreamLogger, type LogLevel } from './log';
import { addEdrCommands } from './cli-edr';
import { addZtaCommands } from './cli-zta';
import { addAlarmCommands } from './cli-alarms';
import { addAuditCommands } from './cli-audit';
import { addTeamCommands } from './cli-team';
import { parseAmqpUrl } from '../shared/model/settings';
import { CliFailure, describeFailure, listenFailure, whole } from './cli-errors';
import type { EdrSimulators } from './cli-simulate-edr';
// The simulators, the app services and the web host are imported by the commands that use them,
// so a one-shot command (`edr poll`) loads and keeps only its own modules.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const hostCount = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 10 || n > 100_000) throw new InvalidArgumentError('the number of hosts is a whole number from 10 to 100000.');
  return n;
};

const port = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one).');
  return n;
};

const perSecond = (value: string): number => {
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 10_000) throw new InvalidArgumentError('the alarm rate is a number of changes per second from 0 to 10000.');
  return n;
};

/** `--alarm-burst 200/60`: 200 changes at once every 60 seconds. */
const burst = (value: string): { size: number; everyMs: number } => {
  const m = /^(\d+)\/(\d+(?:\.\d+)?)$/.exec(value.trim());
  const size = Number(m?.[1]);
  const every = Number(m?.[2]);
  if (!m || size < 1 || size > 100_000 || every <= 0 || every > 86_400) throw new InvalidArgumentError('a burst is SIZE/SECONDS, e.g. 200/60 (200 changes every 60 s).');
  return { size, everyMs: every * 1000 };
};

const amqpAddress = (value: string): string => {
  const parsed = parseAmqpUrl(value);
  if (!parsed.ok) throw new InvalidArgumentError(parsed.message);
  return value.trim();
};

const LEVELS: readonly LogLevel[] = ['debug', 'info', 'warn', 'error'];
const logLevel = (value: string): LogLevel => {
  if (!(LEVELS as readonly string[]).includes(value)) throw new InvalidArgumentError(`the log level is one of ${LEVELS.join(', ')}.`);
  return value as LogLevel;
};

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const done = (s: NodeJS.Signals) => resolve(s);
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

/** The lines `simulate` prints on stderr once everything listens: where, and how to stop. */
function readyText(mgmt: { basicUrl: string; oauthUrl: string }, edr?: Record<string, unknown>, alarms?: { ratePerSecond: number; amqpUrl: string | null; exchange: string | null }): string {
  const lines = ['Simulators ready (127.0.0.1 only):', `  management node  ${mgmt.basicUrl} (basic auth), ${mgmt.oauthUrl} (OAuth)`];
  if (alarms) lines.push(`  alarms           ${alarms.ratePerSecond} changes/s${alarms.amqpUrl ? `, published to ${alarms.amqpUrl} exchange ${alarms.exchange}` : ' (REST only: no --amqp-url)'}`);
  const d = edr?.defender as { apiUrl: string; idpUrl: string } | undefined;
  const f = edr?.falcon as { baseUrls: Record<string, string>; cloudRegion: string } | undefined;
  if (d) lines.push(`  Defender         ${d.apiUrl} (API), ${d.idpUrl} (Entra ID)`);
  if (f) lines.push(`  Falcon           ${Object.entries(f.baseUrls).map(([r, u]) => `${u} (${r})`).join(', ')}; the tenant is in ${f.cloudRegion}`);
  lines.push(`${edr ? 'Users, secrets, certificate fingerprints and CA files' : 'Users, secrets and the certificate fingerprint'} are in the JSON line on stdout.`, 'Press Ctrl-C to stop.');
  return `${lines.join('\n')}\n`;
}

async function writeNodeCa(pem: string): Promise<{ file: string; remove(): Promise<void> }> {
  const { mkdtemp, rm, writeFile } = await import('node:fs/promises');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'northbound-node-'));
  const file = path.join(dir, 'node-ca.pem');
  await writeFile(file, pem, { mode: 0o600 });
  return { file, remove: () => rm(dir, { recursive: true, force: true }) };
}

const version = (): string => (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

export function buildCli(): Command {
  const program = new Command('northbound')
    .description('Northbound operations console on the command line: simulators, browser mode, EDR polling, the stored risk scores and alarm collection.')
    .version(version(), '-V, --version', 'print the version')
    .showHelpAfterError()
    // Usage errors (unknown option, missing or invalid value) exit 2, as `edr poll`'s own checks do; --help and --version 0.
    .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2))
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  northbound simulate --edr    management node, Defender and Falcon simulators',
        '  northbound serve --demo      the app in your browser, with the demo workspace',
        '  northbound edr poll --help   how to poll an EDR tenant and score its hosts',
        '  northbound zta export --help the stored scores of a data folder or a team\'s database as CSV or JSON',
        '  northbound simulate --alarms --amqp-url amqp://guest:guest@127.0.0.1:5672',
        '                               a node raising alarms, published to RabbitMQ',
        '  northbound alarms follow --help   collect a node’s alarms into a store, headless',
        '',
        'Machine-readable output goes to stdout, messages and progress to stderr.',
        'Exit codes: 0 done, 1 the command failed, 2 wrong options.',
      ].join('\n'),
    );

  program
    .command('simulate')
    .description('Start the management node simulator (and with --edr the Defender and Falcon simulators) on 127.0.0.1; prints one JSON line with URLs, fingerprints and credentials, and runs until Ctrl-C.')
    .option('--mgmt-basic-port <port>', 'basic-auth port (0 = any free port)', port, 9182)
    .option('--mgmt-oauth-port <port>', 'OAuth port (0 = any free port)', port, 9183)
    .option('--organizations <n>', 'seeded organizations (1 to 500)', whole('the number of organizations', 1, 500), 14)
    .option('--devices <n>', 'seeded devices (0 to 20000)', whole('the number of devices', 0, 20_000), 60)
    .option('--edr', 'also start the Defender (with Entra ID) and Falcon simulators, one tenant each', false)
    .option('--edr-hosts <n>', 'hosts per EDR tenant (10 to 100000)', hostCount, 1000)
    .option('--alarms', 'generate alarm changes (fault management) and, with --amqp-url, publish them to RabbitMQ', false)
    .option('--alarm-rate <n>', 'alarm changes per second (0 to 10000; with --alarms)', perSecond, 1)
    .option('--alarm-burst <size/seconds>', 'a burst of SIZE changes every SECONDS, e.g. 200/60 (with --alarms)', burst)
    .option('--alarm-flap-every <seconds>', 'on average one flapping interface (down and up within 2 s) every SECONDS; 0 = none (with --alarms)', Number, 30)
    .option('--amqp-url <url>', 'publish every alarm event to this RabbitMQ broker (with --alarms)', amqpAddress)
    .option('--alarm-exchange <name>', 'the topic exchange alarm events go to', 'mgmt.alarms')
    .action(async (opts: { mgmtBasicPort: number; mgmtOauthPort: number; organizations: number; devices: number; edr: boolean; edrHosts: number; alarms: boolean; alarmRate: number; alarmBurst?: { size: number; everyMs: number }; alarmFlapEvery: number; amqpUrl?: string; alarmExchange: string }) => {
      if (opts.mgmtBasicPort !== 0 && opts.mgmtBasicPort === opts.mgmtOauthPort) {
        throw new CliFailure(`--mgmt-basic-port and --mgmt-oauth-port are both ${opts.mgmtBasicPort}: the two listeners need two ports (0 takes any free one).`, 2);
      }
      if (opts.amqpUrl && !opts.alarms) throw new CliFailure('--amqp-url publishes alarm events: add --alarms.', 2);
      if (!Number.isFinite(opts.alarmFlapEvery) || opts.alarmFlapEvery < 0) throw new CliFailure('--alarm-flap-every is a number of seconds (0 = no flapping).', 2);
      const logger = createStreamLogger(process.stderr, 'warn');
      const { startMgmtSimulator } = await import('@northbound/simulators/demo');
      const { startEdrSimulators } = await import('./cli-simulate-edr');
      const alarms = opts.alarms
        ? {
            generator: { ratePerSecond: opts.alarmRate, ...(opts.alarmBurst ? { burst: opts.alarmBurst } : {}), flapEveryMs: opts.alarmFlapEvery * 1000 },
            ...(opts.amqpUrl ? { amqp: { url: opts.amqpUrl, exchange: opts.alarmExchange } } : {}),
          }
        : undefined;
      const sim = await startMgmtSimulator({ basicPort: opts.mgmtBasicPort, oauthPort: opts.mgmtOauthPort, seedOrganizations: opts.organizations, seedDevices: opts.devices, logger, ...(alarms ? { alarms } : {}) }).catch((e: unknown) => {
        const ports = [
          { port: opts.mgmtBasicPort, flag: '--mgmt-basic-port', what: 'the management node’s basic-auth port' },
          { port: opts.mgmtOauthPort, flag: '--mgmt-oauth-port', what: 'the management node’s OAuth port' },
        ];
        throw listenFailure(e, ports) ?? e;
      });
      let edr: EdrSimulators | undefined;
      try {
        edr = opts.edr ? await startEdrSimulators(opts.edrHosts, logger) : undefined;
      } catch (e) {
        await sim.close();
        throw e;
      }
      // The node's certificate as a PEM file for `alarms follow --ca-file` (removed when the command stops).
      const nodeCa = opts.alarms ? await writeNodeCa(sim.certificatePem) : undefined;
      // Listening for Ctrl-C before saying "ready": whoever reads the line may stop us at once.
      const stopped = untilSignal();
      // stdout: one JSON line for scripts (and tests); stderr: the same news for a person.
      const described = sim.describe();
      const edrInfo = edr?.describe();
      const alarmInfo = described.alarms ? { ...described.alarms, caFile: nodeCa?.file } : undefined;
      process.stdout.write(`${JSON.stringify({ ...described, ...(alarmInfo ? { alarms: alarmInfo } : {}), ...(edrInfo ? { edr: edrInfo } : {}) })}\n`);
      process.stderr.write(readyText(described.mgmt, edrInfo, described.alarms));
      await stopped;
      await edr?.close();
      await sim.close();
      await nodeCa?.remove();
    });

  program
    .command('serve')
    .description('Run Northbound in your browser: the same services, served on 127.0.0.1, guarded by a token valid for this launch.')
    .option('--demo', 'open the demo workspace (built-in simulators) at start', false)
    .option('--port <port>', 'port to listen on (0 = any free port)', port, 0)
    .option('--data-dir <dir>', 'where settings and the vault live', path.join(os.homedir(), '.northbound'))
    .option('--passphrase-env <name>', 'environment variable holding the vault passphrase (secrets persist encrypted); without it secrets live in memory only')
    .option('--static-dir <dir>', 'built renderer', path.join(root, 'dist', 'renderer'))
    .option('--organizations <n>', 'organizations of the demo node (1 to 500)', whole('the number of organizations', 1, 500))
    .option('--devices <n>', 'devices of the demo node (0 to 20000)', whole('the number of devices', 0, 20_000))
    .option('--log-level <level>', 'the service log on stderr (JSON lines): debug, info, warn or error', logLevel, 'warn')
    .action(async (opts: { demo: boolean; port: number; dataDir: string; passphraseEnv?: string; staticDir: string; organizations?: number; devices?: number; logLevel: LogLevel }) => {
      if (!existsSync(path.join(opts.staticDir, 'index.html'))) {
        process.stderr.write(`The renderer is not built in ${opts.staticDir}. Run \`npm run build:renderer\` (or \`npm run start:web\`).\n`);
        process.exitCode = 1;
        return;
      }
      // Warnings only by default: the address printed on stdout stays in view instead of scrolling away under every poll's log line.
      const logger = createStreamLogger(process.stderr, opts.logLevel);
      let passphrase: string | undefined;
      if (opts.passphraseEnv) {
        passphrase = process.env[opts.passphraseEnv];
        if (!passphrase) {
          process.stderr.write(`The environment variable ${opts.passphraseEnv} is empty; set it to the vault passphrase.\n`);
          process.exitCode = 1;
          return;
        }
      }
      const [{ createNodeAdapters }, { createApp }, { startWebHost }] = await Promise.all([import('./app/node-platform'), import('./app/services'), import('./web/host')]);
      const adapters = await createNodeAdapters({ dataDir: opts.dataDir, passphrase, logger, mode: 'browser', demoPorts: { basic: 0, oauth: 0 } });
      const app = await createApp(adapters, { openDemo: opts.demo, demoInventory: { organizations: opts.organizations, devices: opts.devices } });
      const host = await startWebHost({ router: app.router, events: app.events, logger, staticDir: opts.staticDir, port: opts.port, downloads: app.downloads }).catch(async (e: unknown) => {
        await app.shutdown();
        throw listenFailure(e, [{ port: opts.port, flag: '--port', what: 'the browser-mode address' }]) ?? e;
      });
      const stopped = untilSignal();
      process.stdout.write(`Northbound is running. Open this address in your browser:\n${host.url}\n`);
      process.stdout.write('The address (its token) works until this process stops; each launch prints a new one. Press Ctrl-C to stop.\n');
      if (!adapters.vault.persistent) process.stdout.write('Secrets are kept in memory only (pass --passphrase-env to keep them encrypted on disk).\n');
      await stopped;
      await host.close();
      await app.shutdown();
    });

  addEdrCommands(program);
  addZtaCommands(program);
  addAlarmCommands(program);
  addAuditCommands(program);
  addTeamCommands(program);
  return program;
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly || process.env.NORTHBOUND_CLI === '1') {
  buildCli()
    .parseAsync(process.argv)
    .catch((e: unknown) => {
      process.stderr.write(`${describeFailure(e)}\n`);
      process.exit(e instanceof CliFailure ? e.exitCode : 1);
    });
}
