/**
 * `northbound audit export --data-dir DIR [--format jsonl|csv]` (issue 22.2): the activity log of a
 * data folder — every operator write the console made, who, when, what, on which object, the
 * outcome — oldest first, on stdout, offline. JSON Lines, or CSV through the one CSV writer
 * (names come from nodes and operators and must never run as a spreadsheet formula).
 */
import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { csvLine, toCsv } from '../shared/csv';
import { ACTIVITY_COLUMNS } from '../shared/model/activity';
import { CliFailure } from './cli-errors';

export function addAuditCommands(program: Command): void {
  const audit = program.command('audit').description('The activity log: what operators changed through the console.');
  audit
    .command('export')
    .description('Print the activity log on stdout (JSON Lines or CSV), oldest first; works offline.')
    .requiredOption('--data-dir <dir>', 'the data folder (where activity.db lives)')
    .option('--format <format>', 'jsonl or csv', 'jsonl')
    .addHelpText('after', ['', 'Exit codes: 0 printed, 1 no activity log in the folder, 2 wrong options.', '', 'Example:', '  northbound audit export --data-dir ~/.northbound --format csv > activity.csv'].join('\n'))
    .action(async (flags: { dataDir: string; format: string }) => {
      if (flags.format !== 'jsonl' && flags.format !== 'csv') throw new CliFailure('--format is jsonl or csv.', 2);
      const file = path.join(flags.dataDir, 'activity.db');
      if (!existsSync(file)) throw new CliFailure(`There is no activity log in ${flags.dataDir} (no activity.db): the app keeps one once an operator changes something.`, 1);
      const { ActivityDb } = await import('./store/activity-db');
      const db = new ActivityDb(file);
      try {
        const write = async (text: string) => {
          if (!process.stdout.write(text)) await new Promise((resolve) => process.stdout.once('drain', resolve));
        };
        if (flags.format === 'csv') await write(csvLine(ACTIVITY_COLUMNS));
        for (const rows of db.all()) {
          await write(
            flags.format === 'csv'
              ? toCsv(rows.map((r) => ACTIVITY_COLUMNS.map((c) => r[c] ?? '')))
              : `${rows.map((r) => JSON.stringify(Object.fromEntries(ACTIVITY_COLUMNS.map((c) => [c, r[c]])))).join('\n')}\n`,
          );
        }
      } finally {
        db.close();
      }
    });
}
