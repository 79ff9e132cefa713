import type { Db } from '../../../store/db.js';
import type { Config } from '../../../config/config.js';
import type { AtRestCipher } from '../../../security/at-rest.js';
import type { AllauthSource } from '../../../store/allauth/source.js';
import type { ImportSummary } from './summary.js';

/** One import's state, shared by its steps. */
export interface ImportRun {
  source: AllauthSource;
  db: Db;
  /** The server's settings: its providers, SOCIALACCOUNT_STORE_TOKENS. */
  config: Config;
  /** Seals TOTP secrets, recovery seeds and provider tokens as the server does. */
  atRest: AtRestCipher;
  /** --provider-map: allauth's provider value to the provider id here. */
  providerMap: ReadonlyMap<string, string>;
  /** --show-app-secrets: the summary's suggested settings carry the apps' client secrets. */
  showAppSecrets: boolean;
  /** The name the records are kept under (--source-name). */
  sourceName: string;
  /** The import's clock: which sessions are live, and the time imported rows get. */
  now: number;
  batchSize: number;
  /** Django's SECRET_KEY and fallbacks; sessions are imported only with them. */
  djangoSecretKeys: string[];
  summary: ImportSummary;
}

/** Why an import stopped; the batches it committed before stay. */
export type ImportFailure =
  /** The source is no allauth database the import can read: `message` says what is wrong. */
  | { ok: false; reason: 'source_error'; message: string }
  /** A source user is not the one imported under this source name (another date_joined): likely another database. */
  | { ok: false; reason: 'source_mismatch'; sourceUserId: number };

/**
 * One kind of source data: users with their addresses, sessions, social
 * accounts with their tokens, MFA authenticators. A step goes
 * through its rows in batches, each in one transaction, and skips rows it
 * imported before (store/import-records.ts), so a run that stopped half way
 * is finished by running it again.
 */
export interface ImportStep {
  /** Shown on the progress bar. */
  label: string;
  /** How many source rows the step goes through. */
  total(run: ImportRun): Promise<number>;
  /** Imports every batch, or stops at one that must not be imported (and writes nothing of it). */
  run(run: ImportRun, advance: (rows: number) => void): Promise<ImportFailure | void>;
}
