/**
 * `northbound zta export (--data-dir DIR | --database-url URL) --format csv|json [--customer C]
 * [--platform P] [--band B]` (issues 11.7, 24.5): the stored latest score of every host, offline,
 * as the ZTA dashboard's export writes them: the same connectors the app shows (ZtaService over DIR's
 * edr.db and its registered connectors, or over a team's PostgreSQL, whose connectors are named
 * from the store; a tenant only the CLI polled is named from the store, EDR-Z8; EDR-Z9), the same
 * filter rule, order, columns and bytes (exportPieces over the store's stream, a chunk at a time,
 * C-86: CSV with formulas escaped).
 * Data on stdout, a one-line account on stderr.
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ExportFormat } from '../shared/contract-zta';
import { AppError, ErrorCodes } from '../shared/model/errors';
import { BANDS, PLATFORMS, ZtaFilter } from '../shared/model/zta';
import { issueText } from '../shared/validation/error-map';
import { oneSource, openTeamDatabase, withDatabaseOptions, type DatabaseFlags } from './cli-database';
import { CliFailure } from './cli-errors';
import type { StoredConnector } from './edr/registry';
import type { EdrStore } from './edr/store/edr-store';
import { createStreamLogger, type Logger } from './log';

interface ExportFlags extends DatabaseFlags {
  format: string;
  customer?: string;
  platform?: string;
  band?: string;
  progress: boolean;
}

const FLAG_OF: Readonly<Record<string, string>> = { format: '--format', customer: '--customer', platform: '--platform', band: '--band' };

/** A choice typed loosely (`high-risk`, `high risk`, `windows`) as the option it names; anything else as typed (zod words the refusal). */
function choice<T extends string>(value: string | undefined, options: readonly T[]): string | undefined {
  if (value === undefined) return undefined;
  const norm = (s: string) => s.trim().toLowerCase().replace(/[-_\s]+/g, ' ');
  return options.find((o) => norm(o) === norm(value)) ?? value;
}

/** The flags as a format and a filter, or the sentences that refuse them (each naming its flag). */
export function parseExportFlags(flags: Pick<ExportFlags, 'format' | 'customer' | 'platform' | 'band'>): { format: ExportFormat; filter: ZtaFilter } | { refused: string[] } {
  const format = ExportFormat.safeParse(flags.format.trim().toLowerCase());
  const filter = ZtaFilter.safeParse({
    ...(flags.customer !== undefined ? { customer: flags.customer } : {}),
    ...(flags.platform !== undefined ? { platform: choice(flags.platform, PLATFORMS) } : {}),
    ...(flags.band !== undefined ? { band: choice(flags.band, BANDS) } : {}),
  });
  const refused: string[] = [];
  if (!format.success) refused.push(`Choose the format: csv or json. (--format)`);
  if (!filter.success) {
    // The shared sentences (C-23) name the choices already; the flag follows each.
    for (const i of filter.error.issues) refused.push(`${issueText(i)} (${FLAG_OF[String(i.path[0] ?? '')] ?? String(i.path[0] ?? '')})`);
  }
  return format.success && filter.success ? { format: format.data, filter: filter.data } : { refused };
}

export function addZtaCommands(program: Command): void {
  const zta = program.command('zta').description('Risk review of the stored ZTA scores, offline.');
  withDatabaseOptions(zta.command('export').option('--data-dir <dir>', 'the data folder whose edr.db is read (the app’s, or one `edr poll --data-dir` filled)'))
    .description('Write the stored latest score of every host to stdout as CSV or JSON, with the rows and columns of the ZTA dashboard’s export; reads a data folder (no network) or a team’s PostgreSQL.')
    .requiredOption('--format <format>', 'csv or json')
    .option('--customer <id>', 'only this customer (Defender: the tenant ID; Falcon: the CID)')
    .option('--platform <platform>', 'only this platform: Windows, Mac, Linux or Other')
    .option('--band <band>', 'only this band: Trustworthy, "Low Risk", "Moderate Risk", Suspicious, "High Risk" or "Not assessed" (high-risk, not-assessed work too)')
    .option('--no-progress', 'no account on stderr (errors are still printed)')
    .addHelpText(
      'after',
      [
        '',
        'Rows come riskiest first, as the dashboard lists them. CSV: one header line, then one line',
        'per host (a value that a spreadsheet would run as a formula is written as text).',
        'JSON: {exportedAt, asOf, filter, connectors, columns, rows}. Columns: host_id, hostname,',
        'vendor, connector, customer_id, platform, score (empty: not assessed), band, last_seen, as_of,',
        'falcon_os_assessment, falcon_sensor_assessment, falcon_overall_assessment (Falcon hosts, 1-100,',
        'higher is better), defender_exposure_level, defender_health_status, defender_risk_level,',
        'defender_av_status (Defender hosts).',
        'Exit codes: 0 written, 1 the folder or the database could not be read, 2 wrong options.',
        '',
        'Examples:',
        '  northbound zta export --data-dir ~/.northbound --format csv --platform Windows --band high-risk > risky.csv',
        '  NORTHBOUND_DATABASE_PASSWORD=… northbound zta export --database-url postgres://nb_console@db.example/northbound --format json',
        '  (the app names the same file northbound-zta-platform-windows-band-high-risk-asof-<time>z.csv)',
      ].join('\n'),
    )
    .action(async (flags: ExportFlags) => {
      const parsed = parseExportFlags(flags);
      if ('refused' in parsed) throw new CliFailure(`${parsed.refused.join('\n')}\nRun \`northbound zta export --help\` for the options.`, 2);
      const source = oneSource(flags, { desk: 'a data folder', team: "a team's database" });
      const logger = createStreamLogger(process.stderr, 'warn');
      const { store, connectors, close, everyStored } = 'dataDir' in source ? await openDeskScores(source.dataDir, logger) : await openTeamScores({ ...flags, ...source });
      // Loaded only by this command.
      const [{ ConnectorRegistry }, { ZtaService }, { exportHead, exportPieces }, { createMemoryVault }] = await Promise.all([
        import('./edr/registry'),
        import('./edr/zta-service'),
        import('./edr/zta-export'),
        import('./store/vault'),
      ]);
      try {
        const listed = { get: <T>(k: string) => (k === 'edrConnectors' ? (connectors as T) : undefined), set: () => undefined, delete: () => undefined };
        const zta = new ZtaService({
          store,
          registry: new ConnectorRegistry(listed, createMemoryVault(undefined, logger)),
          // Nothing runs here: no cycle is under way in this process, and the export never rescores.
          scheduler: {
            status: () => ({ running: false }),
            rescore: () => Promise.reject(new AppError(ErrorCodes.validation, 'The command line does not rescore.', '')),
          },
          logger,
          // Retention runs after a cycle completes; none does here.
          retentionDays: () => Number.NaN,
          everyStored,
        });
        // Streamed from the store a chunk at a time (C-86), as the app's export.
        const source = zta.exportSource();
        const head = exportHead(await source.connectors());
        let written = 0;
        for await (const piece of exportPieces(head, source.rows(parsed.filter, head.connectors), parsed.format, parsed.filter, new Date())) {
          written += piece.rows;
          if (!process.stdout.write(piece.text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
        }
        if (flags.progress) {
          const shown = head.connectors.filter((c) => c.cycleId !== null);
          const asOf = head.asOf ? `as of ${head.asOf}` : 'nothing stored yet';
          const all = await source.count({}, head.connectors);
          process.stderr.write(`zta export: ${written.toLocaleString('en-US')} of ${all.toLocaleString('en-US')} hosts (${parsed.format}), ${shown.length} connector(s), ${asOf}\n`);
        }
      } finally {
        await close();
      }
    });
}

/** Where the scores come from: the store, the connectors registered beside it, whether every stored connector is shown (ZtaServiceOptions.everyStored). */
interface StoredScores {
  store: EdrStore;
  connectors: StoredConnector[];
  close(): Promise<void>;
  everyStored: boolean;
}

/** A data folder's edr.db (as a guest: the app may be running on it) and the connectors its settings register. */
async function openDeskScores(dir: string, logger: Logger): Promise<StoredScores> {
  const dataDir = path.resolve(dir);
  const file = path.join(dataDir, 'edr.db');
  if (!existsSync(file)) {
    throw new CliFailure(
      `There is no edr.db in ${dataDir}: no scores were ever stored there.\nGive --data-dir the app's data folder (its Settings page shows it), or fill one with \`northbound edr poll --once … --data-dir ${dir}\`.`,
      1,
    );
  }
  // Loaded only here: SQLite and the settings file.
  const [{ openEdrStore }, { registeredConnectors }] = await Promise.all([import('./edr/store/sqlite-edr-store'), import('./cli-edr-store')]);
  const store = openEdrStore(file, { guest: true });
  try {
    return { store, connectors: registeredConnectors(dataDir, logger), close: () => store.close(), everyStored: false };
  } catch (e) {
    await store.close();
    throw e;
  }
}

/** A team's EDR store on PostgreSQL: every connector it holds cycles of, named from them (no folder registers them here). */
async function openTeamScores(flags: DatabaseFlags & { databaseUrl: string }): Promise<StoredScores> {
  const { openPgEdrStore } = await import('./edr/store/edr-pg');
  const { value: store, close } = await openTeamDatabase(flags, { applicationName: 'northbound zta export', max: 2 }, openPgEdrStore);
  return { store, connectors: [], close, everyStored: true };
}
