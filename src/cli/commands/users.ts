import type { Command } from 'commander';
import { parseWhen, wholeNumber } from '../arguments.js';
import { runCommand } from '../context.js';
import { resolveUser, USER_REF_HELP } from '../user-ref.js';
import { confirm, readNewPassword } from '../prompt.js';
import { createAccount } from '../users/create.js';
import { setPassword } from '../users/password.js';
import { setActive } from '../users/activation.js';
import { printSetupLink } from '../users/setup-link.js';
import { detailsJson, detailsText, loadUserDetails, userJson, usersText } from '../users/view.js';
import { cliSource } from '../../audit/recorder.js';
import { deleteAccount, findUsers, setAdmin } from '../../flows/admin/users.js';
import { SETUP_LINK_LIFETIME_MS } from '../../flows/admin/setup-links.js';

export function registerUserCommands(program: Command): void {
  const users = program.command('users').description('create, find, change and delete users');

  users
    .command('create')
    .description('create a user (with a password typed at a prompt, piped in, or none)')
    .option('--email <address>', 'the primary email address')
    .option('--username <name>', 'the username')
    .option('--verified', 'mark the address verified', false)
    .option('--password-stdin', 'read the password from stdin (the first line, less its line ending)', false)
    .option('--no-password', 'create the user without a password (a reset or an admin sets one later)')
    .addHelpText('after', '\nThe same rules as signup apply: address form, username rules, ACCOUNT_PASSWORD_MIN_LENGTH and the\npassword checks. Errors: required, invalid, username_taken, email_taken, password_too_short, ...')
    .action((opts: { email?: string; username?: string; verified: boolean; passwordStdin: boolean; password: boolean }, command: Command) =>
      runCommand(command, async (ctx) => {
        const password = opts.password ? await readNewPassword(opts.passwordStdin) : null;
        const id = await createAccount(ctx, { email: opts.email, username: opts.username, password, verified: opts.verified });
        const details = await loadUserDetails(ctx, id);
        return { json: detailsJson(details), text: `created ${detailsText(details)}` };
      }),
    );

  users
    .command('show')
    .description('show one user: addresses, password hasher, sessions, authenticators, social accounts, import origin')
    .argument('<user>', USER_REF_HELP)
    .action((ref: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const details = await loadUserDetails(ctx, (await resolveUser(ctx, ref)).id);
        return { json: detailsJson(details), text: detailsText(details) };
      }),
    );

  const listOptions = (command: Command) =>
    command
      .option('--limit <n>', 'at most this many users', wholeNumber(), 50)
      .option('--after <id>', 'only users with a higher id (the next page starts after the last id shown)', wholeNumber(), 0)
      .option('--active', 'only users who can log in')
      .option('--disabled', 'only disabled users')
      .option('--admins', 'only users with the admin role');
  type ListOptions = { limit: number; after: number; active?: boolean; disabled?: boolean; admins?: boolean };
  const list = (command: Command, opts: ListOptions, search?: string) =>
    runCommand(command, async (ctx) => {
      const active = opts.active ? true : opts.disabled ? false : undefined;
      const found = await findUsers(ctx, { afterId: opts.after, limit: opts.limit, search, active, admin: opts.admins ? true : undefined });
      const more = found.length === opts.limit ? `\n(more may follow: --after ${found.at(-1)!.id})` : '';
      return { json: { users: found.map(userJson), next_after: found.length === opts.limit ? found.at(-1)!.id : null }, text: usersText(found) + more };
    });

  listOptions(users.command('list').description('list users by id, a page at a time')).action((opts: ListOptions, command: Command) => list(command, opts));

  listOptions(
    users
      .command('find')
      .description('find users whose username or any address contains the text (case-insensitive)')
      .argument('<text>', 'part of a username or an email address'),
  ).action((text: string, opts: ListOptions, command: Command) => list(command, opts, text));

  users
    .command('set-password')
    .description("set a user's password; ends their sessions and voids reset links, like a reset")
    .argument('<user>', USER_REF_HELP)
    .option('--password-stdin', 'read the password from stdin (the first line, less its line ending)', false)
    .option('--keep-sessions', 'leave the user logged in where they are', false)
    .action((ref: string, opts: { passwordStdin: boolean; keepSessions: boolean }, command: Command) =>
      runCommand(command, async (ctx) => {
        const user = await resolveUser(ctx, ref);
        const password = await readNewPassword(opts.passwordStdin);
        const ended = await setPassword(ctx, user, password, opts.keepSessions);
        return { json: { user_id: user.id, sessions_ended: ended }, text: `password set for user ${user.id}; ${ended} session(s) ended` };
      }),
    );

  for (const [name, active] of [['disable', false], ['enable', true]] as const) {
    users
      .command(name)
      .description(active ? 'let a disabled user log in again' : 'stop a user from logging in, and end their sessions now')
      .argument('<user>', USER_REF_HELP)
      .action((ref: string, _opts: unknown, command: Command) =>
        runCommand(command, async (ctx) => {
          const user = await resolveUser(ctx, ref);
          const ended = await setActive(ctx, user, active);
          return {
            json: { user_id: user.id, is_active: active, sessions_ended: ended },
            text: `user ${user.id} ${active ? 'enabled' : `disabled; ${ended} session(s) ended`}`,
          };
        }),
      );
  }

  users
    .command('delete')
    .description('delete a user with their addresses and sessions, for good')
    .argument('<user>', USER_REF_HELP)
    .option('--yes', 'do not ask for confirmation (needed without a terminal)', false)
    .action((ref: string, opts: { yes: boolean }, command: Command) =>
      runCommand(command, async (ctx) => {
        const user = await resolveUser(ctx, ref);
        await confirm(`Delete user ${user.id} (${user.username ?? user.email ?? 'no name'}) for good?`, opts.yes);
        await deleteAccount(ctx, cliSource(ctx.now()), user);
        return { json: { user_id: user.id, deleted: true }, text: `user ${user.id} deleted` };
      }),
    );

  users
    .command('set-admin')
    .description('give a user the admin role: they may sign in to the admin console (with a password and a second factor)')
    .argument('<user>', USER_REF_HELP)
    .option('--setup-link', 'also print a one-time link to the console where they choose a password (if they have none) and set up a second factor', false)
    .option('--link-expires <when>', 'when the link stops working: a time from now (30m, 12h, 90d) or an ISO 8601 date or time', parseWhen(Date.now))
    .option('--console-url <url>', 'the console as the administrator reaches it (default: http://ADMIN_HOST:ADMIN_PORT/console)')
    .addHelpText(
      'after',
      '\nRecords admin.granted (nothing when the user already was an admin); with --setup-link also admin.setup_link_created.\nThe link works once, for 24 hours unless --link-expires says otherwise; a new link replaces the earlier one.\nErrors: not_found, invalid (--link-expires in the past, --console-url), config_error (no ADMIN_PORT and no --console-url)',
    )
    .action((ref: string, opts: { setupLink: boolean; linkExpires?: number; consoleUrl?: string }, command: Command) =>
      runCommand(command, async (ctx) => {
        const user = await resolveUser(ctx, ref);
        const { changed } = await setAdmin(ctx, cliSource(ctx.now()), user, true);
        const result = { user_id: user.id, is_admin: true, changed };
        const text = `user ${user.id} ${changed ? 'is now an admin' : 'was already an admin'}`;
        if (!opts.setupLink) return { json: result, text };
        const link = await printSetupLink(ctx, user, { expiresAt: opts.linkExpires ?? ctx.now() + SETUP_LINK_LIFETIME_MS, consoleUrl: opts.consoleUrl });
        return { json: { ...result, ...link.json }, text: `${text}\n${link.text}` };
      }),
    );

  users
    .command('unset-admin')
    .description('take the admin role away; their console sessions stop working at their next request')
    .argument('<user>', USER_REF_HELP)
    .addHelpText('after', '\nRecords admin.revoked (nothing when the user was not an admin). Errors: not_found')
    .action((ref: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const user = await resolveUser(ctx, ref);
        const { changed } = await setAdmin(ctx, cliSource(ctx.now()), user, false);
        return { json: { user_id: user.id, is_admin: false, changed }, text: `user ${user.id} ${changed ? 'is no longer an admin' : 'was not an admin'}` };
      }),
    );
}
