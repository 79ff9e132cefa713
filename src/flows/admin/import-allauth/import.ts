import type { Config } from '../../../config/config.js';
import type { AtRestCipher } from '../../../security/at-rest.js';
import type { Db } from '../../../store/db.js';
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
import type { ImportFailure, ImportStep } from './step.js';

/** In order: the others need their users. */
const STEPS: ImportStep[] = [usersStep, sessionsStep, socialStep, mfaStep, idpStep];

export interface ImportDeps {
  config: Config;
  db: Db;
  /** Seals imported secrets as the server does; asked for once the source has opened (it may make the development key). */
  atRest: () => AtRestCipher;
  now: () => number;
}

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

/** How far each step has gone through its source rows (the CLI draws a bar per step). */
export interface ImportProgress {
  start(label: string, total: number): { advance(rows: number): void; stop(): void };
}

export type ImportResult = { ok: true; summary: ImportSummary } | ImportFailure;

/** Imports an allauth database into the configured one; see docs/import-allauth.md. */
export async function importAllauth(deps: ImportDeps, options: ImportOptions, progress: ImportProgress): Promise<ImportResult> {
  if (options.url === deps.config.databaseUrl) return { ok: false, reason: 'source_error', message: 'the source is the configured DATABASE_URL itself' };
  try {
    const source = await openAllauthSource(options.url, options.userTable);
    try {
      return await inSnapshot(source, async (snapshot): Promise<ImportResult> => {
        checkUserTable(snapshot);
        const run = { ...options, source: snapshot, db: deps.db, config: deps.config, atRest: deps.atRest(), now: deps.now(), summary: new ImportSummary() };
        for (const step of STEPS) {
          const bar = progress.start(step.label, await step.total(run));
          const failure = await step.run(run, bar.advance).finally(() => bar.stop());
          if (failure) return failure;
        }
        run.summary.notImported = await countNotImported(snapshot);
        run.summary.providerApps = reportProviderApps(await readSocialApps(snapshot), deps.config.social.apps, options.providerMap, options.showAppSecrets);
        return { ok: true, summary: run.summary };
      });
    } finally {
      await closeAllauthSource(source);
    }
  } catch (error) {
    // Trouble reading the source: a missing table, an unreadable value.
    if (error instanceof SourceError) return { ok: false, reason: 'source_error', message: `the allauth database: ${error.message}` };
    throw error;
  }
}
