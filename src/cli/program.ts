import { existsSync, readFileSync } from 'node:fs';
import { Command } from 'commander';
import { registerUserCommands } from './commands/users.js';
import { registerEmailCommands } from './commands/emails.js';
import { registerSessionCommands } from './commands/sessions.js';
import { registerMigrateCommand } from './commands/migrate.js';
import { registerImportCommands } from './commands/import.js';
import { registerAuthenticatorCommands } from './commands/authenticators.js';
import { registerAuditCommands } from './commands/audit.js';
import { registerWebhookCommands } from './commands/webhooks.js';
import { registerAdminKeyCommands } from './commands/admin-keys.js';
import { registerIdpCommands } from './commands/idp.js';
import { registerTemplateCommands } from './commands/templates.js';

/** The version in the checkout's package.json, the nearest above this file (under src/ or a build's output folder). */
function packageVersion(): string {
  for (let dir = new URL('.', import.meta.url); dir.pathname !== '/'; dir = new URL('..', dir)) {
    const file = new URL('package.json', dir);
    if (existsSync(file)) return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
  }
  return 'unknown';
}

/** The `headless-auth` command with every subcommand. */
export function buildProgram(): Command {
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
  registerUserCommands(program);
  registerEmailCommands(program);
  registerSessionCommands(program);
  registerAuthenticatorCommands(program);
  registerMigrateCommand(program);
  registerImportCommands(program);
  registerAuditCommands(program);
  registerWebhookCommands(program);
  registerAdminKeyCommands(program);
  registerIdpCommands(program);
  registerTemplateCommands(program);
  return program;
}
