/**
 * `northbound audit export (--data-dir DIR | --database-url URL) [--format jsonl|csv]` (issues 22.2,
 * 24.5): the activity log of a data folder or of a team's PostgreSQL — every operator write the console made, who, when, what, on which object, the
 * outcome — oldest first, on stdout, offline. JSON Lines, or CSV through the one CSV writer
 * (names come from nodes and operators and must never run as a spreadsheet formula).
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { csvLine, toCsv } from '../shared/csv';
import { ACTIVITY_COLUMNS } from '../shared/model/activity';
import { oneSource, openTeamStore, withDatabaseOptions, type DatabaseFlags } from './cli-database';
import { CliFailure } from './cli-errors';
import type { ActivityStore } from './store/activity-store';

export function addAuditCommands(program: Command): void {
  const audit = program.command('audit').description('The activity log: what operators changed through the console.');
  withDatabaseOptions(audit.command('export'), 'the data folder (where activity.db lives)')
    .description('Print the activity log on stdout (JSON Lines or CSV), oldest first: of a data folder (offline) or of a team\'s PostgreSQL.')
    .option('--format <format>', 'jsonl or csv', 'jsonl')
    .addHelpText(
      'after',
      [
        '',
        'Exit codes: 0 printed, 1 no activity log there (or the database could not be reached), 2 wrong options.',
        '',
        'Examples:',
        '  northbound audit export --data-dir ~/.northbound --format csv > activity.csv',
        '  NORTHBOUND_DATABASE_PASSWORD=… northbound audit export --database-url postgres://nb_console@db.example/northbound',
      ].join('\n'),
    )
    .action(async (flags: DatabaseFlags & { format: string }) => {
      if (flags.format !== 'jsonl' && flags.format !== 'csv') throw new CliFailure('--format is jsonl or csv.', 2);
      const source = oneSource(flags, { desk: "a desk's log", team: "a team's" });
      const store = 'dataDir' in source ? await openDeskLog(source.dataDir) : await openTeamLog({ ...flags, ...source });
      try {
        const write = async (text: string) => {
          if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
        };
        if (flags.format === 'csv') await write(csvLine(ACTIVITY_COLUMNS));
        for await (const rows of store.log.all()) {
          await write(
            flags.format === 'csv'
              ? toCsv(rows.map((r) => ACTIVITY_COLUMNS.map((c) => r[c] ?? '')))
              : `${rows.map((r) => JSON.stringify(Object.fromEntries(ACTIVITY_COLUMNS.map((c) => [c, r[c]])))).join('\n')}\n`,
          );
        }
      } finally {
        await store.close();
      }
    });
}

async function openDeskLog(dataDir: string): Promise<{ log: ActivityStore; close(): Promise<void> }> {
  const file = path.join(dataDir, 'activity.db');
  if (!existsSync(file)) throw new CliFailure(`There is no activity log in ${dataDir} (no activity.db): the app keeps one once an operator changes something.`, 1);
  const { openSqliteActivityStore } = await import('./store/activity-store');
  const log = openSqliteActivityStore(file);
  return { log, close: () => log.close() };
}

async function openTeamLog(flags: DatabaseFlags & { databaseUrl: string }): Promise<{ log: ActivityStore; close(): Promise<void> }> {
  const { openPgActivityStore } = await import('./store/activity-pg');
  const { store, close } = await openTeamStore(flags, 'northbound audit export', openPgActivityStore);
  return { log: store, close };
}
