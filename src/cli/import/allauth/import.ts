import type { CliContext } from '../../context.js';
import { CliError } from '../../errors.js';
import type { Progress } from '../../progress.js';
import { closeAllauthSource, inSnapshot, openAllauthSource, SourceError } from '../../../store/allauth/source.js';
import { checkUserTable } from '../../../store/allauth/users.js';
import { countNotImported } from './not-imported.js';
import { sessionsStep } from './sessions-step.js';
import { usersStep } from './users-step.js';
import { ImportSummary } from './summary.js';
import type { ImportStep } from './step.js';

/** In order: sessions need their users. Social accounts and MFA authenticators come next. */
const STEPS: ImportStep[] = [usersStep, sessionsStep];

export interface ImportOptions {
  /** sqlite:<path> or postgres://... of the allauth database. */
  url: string;
  sourceName: string;
  userTable: string;
  batchSize: number;
  djangoSecretKeys: string[];
}

/** Imports an allauth database into the configured one; see the README's "Import from django-allauth". */
export async function importAllauth(ctx: CliContext, options: ImportOptions, progress: Progress): Promise<ImportSummary> {
  if (options.url === ctx.config.databaseUrl) throw CliError.of('source_error', 'the source is the configured DATABASE_URL itself', 'url');
  const source = await asCliError(() => openAllauthSource(options.url, options.userTable));
  try {
    return await asCliError(() =>
      inSnapshot(source, async (snapshot) => {
        checkUserTable(snapshot);
        const run = { ...options, source: snapshot, db: ctx.db, now: ctx.now(), summary: new ImportSummary() };
        for (const step of STEPS) {
          const bar = progress.start(step.label, await step.total(run));
          try {
            await step.run(run, bar.advance);
          } finally {
            bar.stop();
          }
        }
        run.summary.notImported = await countNotImported(snapshot);
        return run.summary;
      }),
    );
  } finally {
    await closeAllauthSource(source);
  }
}

/** Trouble reading the source (a missing table, an unreadable value) as the CLI's error. */
async function asCliError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof SourceError) throw CliError.of('source_error', `the allauth database: ${error.message}`, 'url');
    throw error;
  }
}
