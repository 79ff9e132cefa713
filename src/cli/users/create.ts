import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import { cliSource } from '../../audit/recorder.js';
import * as admin from '../../flows/admin/users.js';

export type { NewAccount } from '../../flows/admin/users.js';

/** `users create` over flows/admin/users.ts: answers the new user's id. */
export async function createAccount(ctx: CliContext, input: admin.NewAccount): Promise<number> {
  const result = await admin.createAccount(ctx, cliSource(ctx.now()), input);
  if (!result.ok) {
    const [first] = result.errors;
    if (result.errors.length === 1 && first?.code === 'required' && first.param === 'email') throw CliError.of('required', 'give an email address, a username or both', 'email');
    throw CliError.fromFields(result.errors);
  }
  return result.userId;
}
