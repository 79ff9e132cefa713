import { readFileSync } from 'node:fs';
import { InvalidArgumentError, type Command } from 'commander';
import { wantsJson } from '../output.js';
import { runCommand } from '../context.js';
import { CliError } from '../errors.js';
import { wholeNumber } from '../arguments.js';
import { progressOnStderr } from '../progress.js';
import { importAllauth } from '../../flows/admin/import-allauth/import.js';
import type { ImportFailure } from '../../flows/admin/import-allauth/step.js';
import { summaryJson, summaryText } from '../import/view.js';

const HELP = `
Imports users with their Django password hashes (pbkdf2_sha256, pbkdf2_sha1, argon2,
bcrypt_sha256, bcrypt, scrypt: they keep working and are re-hashed at the next login),
email addresses with their verified and primary flags, usernames, is_active,
date_joined and last_login; with --django-secret-key-file also the live sessions,
so that users stay logged in. Social accounts come over under the same provider ids
(--provider-map renames one), with their tokens when SOCIALACCOUNT_STORE_TOKENS is on;
MFA authenticators (TOTP, recovery codes, security keys and passkeys) keep working.
Provider apps are not imported: the summary says which SOCIALACCOUNT_PROVIDERS to set.
Run it with the server's settings (SECRET_KEY seals the imported secrets).

Running it again imports only what is new: rows imported before are never changed
or brought back. A summary lists what was imported, what was skipped and why, and
what the source holds that is not carried over. Users whose username or address
belongs to another account here are not imported (exit status 1): resolve those
and run it again.`;

interface ImportCommandOptions {
  djangoSecretKeyFile?: string;
  sourceName: string;
  userTable: string;
  batchSize: number;
  providerMap: Map<string, string>;
  showAppSecrets: boolean;
}

export function registerImportCommands(program: Command): void {
  const importCommand = program.command('import').description('bring users over from another system');

  importCommand
    .command('allauth')
    .description("import a django-allauth deployment's database into this one (DATABASE_URL)")
    .argument('<url>', 'the allauth database: sqlite:<path> (opened read-only) or postgres://user@host:port/db')
    .option('--django-secret-key-file <path>', "a file with Django's SECRET_KEY (then its SECRET_KEY_FALLBACKS, one per line): imports live sessions")
    .option('--source-name <name>', 'the name this import is remembered under; give another database another name', sourceName, 'allauth')
    .option('--user-table <table>', "the user model's table, for a custom AUTH_USER_MODEL with AbstractUser's columns", tableName, 'auth_user')
    .option('--batch-size <n>', 'rows per transaction (up to 5000, which keeps each query within both databases\' limits on bound values)', wholeNumber(5000), 500)
    .option('--provider-map <allauth=here>', "import allauth's social accounts of one provider under another provider id here (repeatable)", providerMapping, new Map<string, string>())
    .option('--show-app-secrets', "print the source's provider app secrets in the suggested SOCIALACCOUNT_PROVIDERS", false)
    .addHelpText('after', HELP)
    .action((url: string, opts: ImportCommandOptions, command: Command) =>
      runCommand(command, async (ctx) => {
        const djangoSecretKeys = opts.djangoSecretKeyFile ? readSecretKeys(opts.djangoSecretKeyFile) : [];
        const result = await importAllauth(
          ctx,
          {
            url,
            sourceName: opts.sourceName,
            userTable: opts.userTable,
            batchSize: opts.batchSize,
            djangoSecretKeys,
            providerMap: opts.providerMap,
            showAppSecrets: opts.showAppSecrets,
          },
          progressOnStderr(!wantsJson(command)),
        );
        if (!result.ok) throw importError(result, opts.sourceName);
        const { summary } = result;
        const shown = withoutPassword(url);
        return { json: summaryJson(summary, shown), text: summaryText(summary, shown), exitCode: summary.conflicts.length > 0 ? 1 : 0 };
      }),
    );
}

/** The import's failure as the CLI's error: a source error is about the <url> argument; a mismatch names its remedy, --source-name. */
function importError(failure: ImportFailure, sourceName: string): CliError {
  if (failure.reason === 'source_error') return CliError.of('source_error', failure.message, 'url');
  return CliError.of(
    'source_mismatch',
    `source user ${failure.sourceUserId} is not the one imported under the name "${sourceName}" (another date_joined): is this another database? Import it with its own --source-name`,
  );
}

/** The source's URL as the summary shows it: a password in it would end up in terminals and logs. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

function sourceName(value: string): string {
  if (!/^[A-Za-z0-9_.-]{1,64}$/.test(value)) throw new InvalidArgumentError('up to 64 letters, digits and _.-');
  return value;
}

/** `<allauth provider>=<provider id here>`, one per option given. */
function providerMapping(value: string, previous: Map<string, string>): Map<string, string> {
  const match = /^([^=\s]{1,200})=([A-Za-z0-9_.-]{1,200})$/.exec(value);
  if (!match) throw new InvalidArgumentError('expected <provider in allauth>=<provider id here>, the id of letters, digits and _.-');
  return new Map(previous).set(match[1]!, match[2]!);
}

function tableName(value: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,62}$/.test(value)) throw new InvalidArgumentError('a table name: letters, digits and _');
  return value;
}

/** One key per line (blank lines ignored); read from a file so the key stays out of `ps` and shell history. */
function readSecretKeys(path: string): string[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw CliError.of('required', `cannot read ${path}: ${(error as Error).message}`, 'django-secret-key-file');
  }
  const keys = text.split(/\r?\n/).filter((line) => line.trim() !== '');
  if (keys.length === 0) throw CliError.of('required', `${path} holds no key`, 'django-secret-key-file');
  return keys;
}
