import { existsSync, readFileSync } from 'node:fs';
import { Command } from 'commander';

type Register = (program: Command) => void;

/**
 * Each top-level command, in the order help lists them, and the module that
 * defines it. A run loads only the module of the command it names (every
 * module brings the flows it calls, and a CLI start is paid per command);
 * help, and a name that is none of these, load them all.
 */
const COMMANDS: ReadonlyArray<readonly [string, () => Promise<Register>]> = [
  ['users', async () => (await import('./commands/users.js')).registerUserCommands],
  ['emails', async () => (await import('./commands/emails.js')).registerEmailCommands],
  ['sessions', async () => (await import('./commands/sessions.js')).registerSessionCommands],
  ['authenticators', async () => (await import('./commands/authenticators.js')).registerAuthenticatorCommands],
  ['migrate', async () => (await import('./commands/migrate.js')).registerMigrateCommand],
  ['import', async () => (await import('./commands/import.js')).registerImportCommands],
  ['audit', async () => (await import('./commands/audit.js')).registerAuditCommands],
  ['webhooks', async () => (await import('./commands/webhooks.js')).registerWebhookCommands],
  ['admin-keys', async () => (await import('./commands/admin-keys.js')).registerAdminKeyCommands],
  ['idp', async () => (await import('./commands/idp.js')).registerIdpCommands],
  ['templates', async () => (await import('./commands/templates.js')).registerTemplateCommands],
];

/** The version in the checkout's package.json, the nearest above this file (under src/ or a build's output folder). */
function packageVersion(): string {
  for (let dir = new URL('.', import.meta.url); dir.pathname !== '/'; dir = new URL('..', dir)) {
    const file = new URL('package.json', dir);
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}

/** The `headless-auth` command, with the subcommand `args` name (process.argv after node and the script), or every one. */
export async function buildProgram(args: readonly string[] = []): Promise<Command> {
  const program = new Command('headless-auth')
    .description(
      "Administer a Headless Auth deployment: users, email addresses, sessions, MFA authenticators, migrations, imports, the audit trail and its webhooks, admin API keys, the OpenID provider's clients, the templates of mails and pages.\n" +
        'Reads the same settings as the server (DATABASE_URL, ACCOUNT_PASSWORD_MIN_LENGTH, ...) from the environment.',
    )
    .version(packageVersion())
    .option('--json', 'print the result as JSON (errors as {"errors": [...]}) for scripts')
    .showHelpAfterError('(add --help for usage)')
    .configureHelp({ showGlobalOptions: true })
    .addHelpText('after', '\nExit status: 0 on success, 1 on an error (and for an import that left conflicts).');
  // The global options (--json, --help, --version) take no value: the first other word names the command.
  const named = args.find((arg) => !arg.startsWith('-'));
  const wanted = COMMANDS.filter(([name]) => name === named);
  for (const [, load] of wanted.length > 0 ? wanted : COMMANDS) (await load())(program);
  return program;
}
