/**
 * `northbound` — the command line: simulators, browser mode. Plain Node, same services as the app.
 *   northbound simulate [--mgmt-basic-port N] [--mgmt-oauth-port N] [--organizations N] [--devices N] [--edr [--edr-hosts N]]
 *   northbound serve [--demo] [--port N] [--data-dir DIR] [--passphrase-env NAME]
 */
import { Command, InvalidArgumentError } from 'commander';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createStreamLogger } from './log';
import { addEdrCommands } from './cli-edr';
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

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const done = (s: NodeJS.Signals) => resolve(s);
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
}

export function buildCli(): Command {
  const program = new Command('northbound').description('Northbound operations console: simulators and browser mode.').showHelpAfterError();

  program
    .command('simulate')
    .description('Start the management node simulator (and with --edr the Defender and Falcon simulators) on 127.0.0.1; prints one JSON line with URLs, fingerprints and credentials.')
    .option('--mgmt-basic-port <port>', 'basic-auth port (0 = any free port)', port, 9182)
    .option('--mgmt-oauth-port <port>', 'OAuth port (0 = any free port)', port, 9183)
    .option('--organizations <n>', 'seeded organizations (1 to 500)', whole('the number of organizations', 1, 500), 14)
    .option('--devices <n>', 'seeded devices (0 to 20000)', whole('the number of devices', 0, 20_000), 60)
    .option('--edr', 'also start the Defender (with Entra ID) and Falcon simulators, one tenant each', false)
    .option('--edr-hosts <n>', 'hosts per EDR tenant (10 to 100000)', hostCount, 1000)
    .action(async (opts: { mgmtBasicPort: number; mgmtOauthPort: number; organizations: number; devices: number; edr: boolean; edrHosts: number }) => {
      const logger = createStreamLogger(process.stderr, 'warn');
      const { startMgmtSimulator } = await import('./simulator');
      const { startEdrSimulators } = await import('./cli-simulate-edr');
      const sim = await startMgmtSimulator({ basicPort: opts.mgmtBasicPort, oauthPort: opts.mgmtOauthPort, seedOrganizations: opts.organizations, seedDevices: opts.devices, logger });
      let edr: EdrSimulators | undefined;
      try {
        edr = opts.edr ? await startEdrSimulators(opts.edrHosts, logger) : undefined;
      } catch (e) {
        await sim.close();
        throw e;
      }
      process.stdout.write(`${JSON.stringify({ ...sim.describe(), ...(edr ? { edr: edr.describe() } : {}) })}\n`);
      await untilSignal();
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
    .action(async (opts: { demo: boolean; port: number; dataDir: string; passphraseEnv?: string; staticDir: string; organizations?: number; devices?: number }) => {
      if (!existsSync(path.join(opts.staticDir, 'index.html'))) {
        process.stderr.write(`The renderer is not built in ${opts.staticDir}. Run \`npm run build:renderer\` (or \`npm run start:web\`).\n`);
        process.exitCode = 1;
        return;
      }
      const logger = createStreamLogger(process.stderr, 'info');
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
      const host = await startWebHost({ router: app.router, events: app.events, logger, staticDir: opts.staticDir, port: opts.port, downloads: app.downloads });
      process.stdout.write(`Northbound is running. Open this address in your browser:\n${host.url}\n`);
      if (!adapters.vault.persistent) process.stdout.write('Secrets are kept in memory only (pass --passphrase-env to keep them encrypted on disk).\n');
      await untilSignal();
      await host.close();
      await app.shutdown();
    });

  addEdrCommands(program);
  return program;
}

const invokedDirectly = process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly || process.env.NORTHBOUND_CLI === '1') {
  buildCli()
    .parseAsync(process.argv)
    .catch((e: unknown) => {
      process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
      process.exit(1);
    });
}
