import type { Command } from 'commander';
import { runCommand } from '../context.js';
import { confirm } from '../prompt.js';
import { resolveUser, USER_REF_HELP } from '../user-ref.js';
import { authenticatorJson, authenticatorsText, removeAuthenticators, selectAuthenticators } from '../authenticators/manage.js';
import { authenticatorsOf } from '../../flows/admin/authenticators.js';
import { authenticatorRecordsOf } from '../../flows/admin/authenticators.js';

export function registerAuthenticatorCommands(program: Command): void {
  const authenticators = program.command('authenticators').description("show and delete users' MFA authenticators (TOTP, recovery codes, security keys, passkeys)");

  authenticators
    .command('list')
    .description("a user's authenticators in creation order: type, dates, a key's name; never a secret or code")
    .argument('<user>', USER_REF_HELP)
    .action((ref: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const user = await resolveUser(ctx, ref);
        const found = await authenticatorsOf(ctx, user.id);
        return { json: { user_id: user.id, authenticators: found.map(authenticatorJson) }, text: authenticatorsText(found) };
      }),
    );

  authenticators
    .command('delete')
    .description('delete authenticators of a user: by id, or every one of a type')
    .argument('<user>', USER_REF_HELP)
    .argument('<which...>', 'authenticator ids, as `authenticators list` shows them, or types: totp, recovery_codes, webauthn')
    .option('--yes', 'do not ask for confirmation (needed without a terminal)', false)
    .addHelpText(
      'after',
      '\nAs when a user removes one through the API, the recovery codes go too once no TOTP or WebAuthn\nauthenticator is left. Sessions stay logged in. Errors: not_found, confirmation_required',
    )
    .action((ref: string, which: string[], opts: { yes: boolean }, command: Command) =>
      runCommand(command, async (ctx) => {
        const user = await resolveUser(ctx, ref);
        const chosen = selectAuthenticators(await authenticatorRecordsOf(ctx, user.id), which);
        const named = chosen.map((a) => `${a.type} ${a.id}`).join(', ');
        await confirm(`Delete ${named} of user ${user.id} (${user.username ?? user.email ?? 'no name'})?`, opts.yes);
        const deleted = await removeAuthenticators(ctx, user.id, chosen);
        return {
          json: { user_id: user.id, deleted: deleted.map((a) => ({ id: a.id, type: a.type })) },
          text: `deleted ${deleted.map((a) => `${a.type} ${a.id}`).join(', ')} of user ${user.id}`,
        };
      }),
    );
}
