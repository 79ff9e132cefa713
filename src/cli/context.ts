import { ConfigError, loadConfig, type Config } from '../config/config.js';
import { developmentSecret } from '../config/dev-secret.js';
import { atRestCipher, type AtRestCipher } from '../security/at-rest.js';
import { closeDatabase, migrationStatus, openDatabase, type Db } from '../store/db.js';
import type { Command } from 'commander';
import { CliError } from './errors.js';
import { respond, type CommandResult } from './output.js';

/** What every command works with: the server's settings and its database. */
export interface CliContext {
  config: Config;
  db: Db;
  now: () => number;
  /** Seals secrets as the server does, so that it can open them (TOTP secrets, provider tokens). */
  atRest: () => AtRestCipher;
}

/** The settings, read from the environment as the server reads them. */
export function cliConfig(): Config {
  try {
    return loadConfig(process.env);
  } catch (error) {
    if (error instanceof ConfigError) throw CliError.of('config_error', `configuration: ${error.message}`);
    throw error;
  }
}

/**
 * Opens the configured database for one command and closes it afterwards.
 * Commands other than `migrate` refuse a database with pending migrations:
 * its tables may not be what this version writes.
 */
export async function withDatabase<T>(work: (ctx: CliContext) => Promise<T>, options: { requireMigrated?: boolean } = {}): Promise<T> {
  const config = cliConfig();
  const db = openDatabase(config.databaseUrl, { poolSize: 2 });
  let cipher: AtRestCipher | undefined;
  try {
    // The first query: an unreachable database shows here, as an error of its own.
    const status = await migrationStatus(db).catch((error: Error) => {
      throw CliError.of('database_error', `cannot read the database (DATABASE_URL): ${error.message}`);
    });
    if (options.requireMigrated !== false) {
      const pending = status.filter((m) => m.appliedAt === null);
      if (pending.length > 0) {
        throw CliError.of('migrations_pending', `the database needs ${pending.length} migration(s) (${pending.map((m) => m.name).join(', ')}): run \`headless-auth migrate\``);
      }
    }
    return await work({ config, db, now: Date.now, atRest: () => (cipher ??= serverCipher(config)) });
  } finally {
    await closeDatabase(db);
  }
}

/** A command's action: its work on the database, its result or error printed (see respond). */
export function runCommand(command: Command, work: (ctx: CliContext) => Promise<CommandResult>, options: { requireMigrated?: boolean } = {}): Promise<void> {
  return respond(command, () => withDatabase(work, options));
}

/** The server's at-rest cipher: SECRET_KEY seals, its fallbacks open; without one, the development key the server made. */
function serverCipher(config: Config): AtRestCipher {
  return atRestCipher([config.secretKey || developmentSecret(config.dataDir), ...config.secretKeyFallbacks]);
}
