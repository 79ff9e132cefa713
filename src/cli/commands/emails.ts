import type { Command } from 'commander';
import { runCommand } from '../context.js';
import { resolveUser, USER_REF_HELP } from '../user-ref.js';
import { addAddress, addressJson, makePrimary, removeAddress, verifyAddress } from '../emails/manage.js';

export function registerEmailCommands(program: Command): void {
  const emails = program.command('emails').description("add, verify and remove users' email addresses");

  emails
    .command('add')
    .description('add an address to a user')
    .argument('<user>', USER_REF_HELP)
    .argument('<email>', 'the address')
    .option('--verified', 'mark it verified', false)
    .option('--primary', 'make it the primary address (the first address always is)', false)
    .addHelpText('after', '\nErrors: invalid, email_taken (another user has it), duplicate_email (this user has it), not_found')
    .action((ref: string, email: string, opts: { verified: boolean; primary: boolean }, command: Command) =>
      runCommand(command, async (ctx) => {
        const added = await addAddress(ctx, await resolveUser(ctx, ref), { email, ...opts });
        return { json: addressJson(added), text: `added ${added.email} to user ${added.userId}${added.primary ? ' as primary' : ''}${added.verified ? ', verified' : ''}` };
      }),
    );

  emails
    .command('verify')
    .description('mark an address verified')
    .argument('<email>', 'the address')
    .action((email: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const { address, changed } = await verifyAddress(ctx, email);
        return { json: { ...addressJson(address), changed }, text: `${address.email} ${changed ? 'is now verified' : 'was already verified'}` };
      }),
    );

  emails
    .command('primary')
    .description("make an address its user's primary one")
    .argument('<email>', 'the address')
    .action((email: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const address = await makePrimary(ctx, email);
        return { json: addressJson(address), text: `${address.email} is now the primary address of user ${address.userId}` };
      }),
    );

  emails
    .command('remove')
    .description('remove an address (a primary one only when it is the last)')
    .argument('<email>', 'the address')
    .addHelpText('after', '\nErrors: not_found, cannot_remove_primary_email')
    .action((email: string, _opts: unknown, command: Command) =>
      runCommand(command, async (ctx) => {
        const address = await removeAddress(ctx, email);
        return { json: { ...addressJson(address), removed: true }, text: `removed ${address.email} from user ${address.userId}` };
      }),
    );
}
