import type { CliContext } from '../../context.js';
import { CliError } from '../../errors.js';
import type { Progress } from '../../progress.js';
import { closeAllauthSource, inSnapshot, openAllauthSource, SourceError } from '../../../store/allauth/source.js';
import { checkUserTable } from '../../../store/allauth/users.js';
import { countNotImported } from './not-imported.js';
import { sessionsStep } from './sessions-step.js';
import { usersStep } from './users-step.js';
import { socialStep } from './social-step.js';
import { mfaStep } from './mfa-step.js';
import { idpStep } from './idp-step.js';
import { reportProviderApps } from './provider-apps.js';
import { readSocialApps } from '../../../store/allauth/social-apps.js';
import { ImportSummary } from './summary.js';
import type { ImportStep } from './step.js';

/** In order: the others need their users. */
const STEPS: ImportStep[] = [usersStep, sessionsStep, socialStep, mfaStep, idpStep];

export interface ImportOptions {
  /** sqlite:<path> or postgres://... of the allauth database. */
  url: string;
  sourceName: string;
  userTable: string;
  batchSize: number;
  djangoSecretKeys: string[];
  /** allauth's social account provider values to provider ids here (--provider-map). */
  providerMap: ReadonlyMap<string, string>;
  /** Print the source apps' client secrets in the suggested settings. */
  showAppSecrets: boolean;
}

/** Imports an allauth database into the configured one; see docs/import-allauth.md. */
export async function importAllauth(ctx: CliContext, options: ImportOptions, progress: Progress): Promise<ImportSummary> {
  if (options.url === ctx.config.databaseUrl) throw CliError.of('source_error', 'the source is the configured DATABASE_URL itself', 'url');
  const source = await asCliError(() => openAllauthSource(options.url, options.userTable));
  try {
    return await asCliError(() =>
      inSnapshot(source, async (snapshot) => {
        checkUserTable(snapshot);
        const run = { ...options, source: snapshot, db: ctx.db, config: ctx.config, atRest: ctx.atRest(), now: ctx.now(), summary: new ImportSummary() };
        for (const step of STEPS) {
          const bar = progress.start(step.label, await step.total(run));
          try {
            await step.run(run, bar.advance);
          } finally {
            bar.stop();
          }
        }
        run.summary.notImported = await countNotImported(snapshot);
        run.summary.providerApps = reportProviderApps(await readSocialApps(snapshot), ctx.config.social.apps, options.providerMap, options.showAppSecrets);
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
