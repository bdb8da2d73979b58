/**
 * `northbound` — the command line: simulators, browser mode, EDR polling. Plain Node, same services as the app.
 *   northbound simulate [--mgmt-basic-port N] [--mgmt-oauth-port N] [--organizations N] [--devices N] [--edr [--edr-hosts N]]
 *   northbound serve [--demo] [--port N] [--data-dir DIR] [--passphrase-env NAME]
 *   northbound edr poll --once --vendor defender|falcon … [--data-dir DIR] (cli-edr.ts)
 *   northbound zta export --data-dir DIR --format csv|json [--customer C] [--platform P] [--band B] (cli-zta.ts)
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
import { CliFailure, describeFailure, listenFailure } from './cli-errors';
import type { EdrSimulators } from './cli-simulate-edr';
// The simulators, the app services and the web host are imported by the commands that use them,
// so a one-shot command (`edr poll`) loads and keeps only its own modules.

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const hostCount = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 10 || n > 100_000) throw new InvalidArgumentError('the number of hosts is a whole number from 10 to 100000.');
  return n;
};

const whole = (label: string, min: number, max: number) => (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new InvalidArgumentError(`${label} is a whole number from ${min} to ${max}.`);
  return n;
};

const port = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new InvalidArgumentError('a port is a whole number from 0 to 65535 (0 picks a free one).');
  return n;
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
function readyText(mgmt: { basicUrl: string; oauthUrl: string }, edr?: Record<string, unknown>): string {
  const lines = ['Simulators ready (127.0.0.1 only):', `  management node  ${mgmt.basicUrl} (basic auth), ${mgmt.oauthUrl} (OAuth)`];
  const d = edr?.defender as { apiUrl: string; idpUrl: string } | undefined;
  const f = edr?.falcon as { baseUrls: Record<string, string>; cloudRegion: string } | undefined;
  if (d) lines.push(`  Defender         ${d.apiUrl} (API), ${d.idpUrl} (Entra ID)`);
  if (f) lines.push(`  Falcon           ${Object.entries(f.baseUrls).map(([r, u]) => `${u} (${r})`).join(', ')}; the tenant is in ${f.cloudRegion}`);
  lines.push(`${edr ? 'Users, secrets, certificate fingerprints and CA files' : 'Users, secrets and the certificate fingerprint'} are in the JSON line on stdout.`, 'Press Ctrl-C to stop.');
  return `${lines.join('\n')}\n`;
}

const version = (): string => (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }).version;

export function buildCli(): Command {
  const program = new Command('northbound')
    .description('Northbound operations console on the command line: simulators, browser mode, EDR polling and the stored risk scores.')
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
        '  northbound zta export --help the stored scores of a data folder as CSV or JSON',
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
    .action(async (opts: { mgmtBasicPort: number; mgmtOauthPort: number; organizations: number; devices: number; edr: boolean; edrHosts: number }) => {
      if (opts.mgmtBasicPort !== 0 && opts.mgmtBasicPort === opts.mgmtOauthPort) {
        throw new CliFailure(`--mgmt-basic-port and --mgmt-oauth-port are both ${opts.mgmtBasicPort}: the two listeners need two ports (0 takes any free one).`, 2);
      }
      const logger = createStreamLogger(process.stderr, 'warn');
      const { startMgmtSimulator } = await import('./simulator');
      const { startEdrSimulators } = await import('./cli-simulate-edr');
      const sim = await startMgmtSimulator({ basicPort: opts.mgmtBasicPort, oauthPort: opts.mgmtOauthPort, seedOrganizations: opts.organizations, seedDevices: opts.devices, logger }).catch((e: unknown) => {
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
      // Listening for Ctrl-C before saying "ready": whoever reads the line may stop us at once.
      const stopped = untilSignal();
      // stdout: one JSON line for scripts (and tests); stderr: the same news for a person.
      const described = sim.describe();
      const edrInfo = edr?.describe();
      process.stdout.write(`${JSON.stringify({ ...described, ...(edrInfo ? { edr: edrInfo } : {}) })}\n`);
      process.stderr.write(readyText(described.mgmt, edrInfo));
      await stopped;
      await edr?.close();
      await sim.close();
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
