import type { Command } from 'commander';
import { runCommand } from '../context.js';
import { formatTime, isoTime, table } from '../output.js';
import { migrateToLatest, migrationStatus } from '../../store/db.js';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending migrations to the database (DATABASE_URL); safe to run while instances serve')
    .option('--status', 'list every migration and when it was applied, changing nothing', false)
    .action((opts: { status: boolean }, command: Command) =>
      runCommand(
        command,
        async (ctx) => {
          if (opts.status) {
            const status = await migrationStatus(ctx.db);
            return {
              json: { migrations: status.map((m) => ({ name: m.name, applied_at: isoTime(m.appliedAt) })) },
              text: table(['MIGRATION', 'APPLIED'], status.map((m) => [m.name, m.appliedAt === null ? 'pending' : formatTime(m.appliedAt)])),
            };
          }
          const applied = await migrateToLatest(ctx.db);
          return { json: { applied }, text: applied.length ? `applied: ${applied.join(', ')}` : 'the database is up to date' };
        },
        { requireMigrated: false },
      ),
    );
}
