import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import type { User } from '../../domain/user.js';
import { cliSource } from '../../audit/recorder.js';
import * as admin from '../../flows/admin/users.js';

/** `users set-password` over flows/admin/users.ts: answers how many live sessions it ended. */
export async function setPassword(ctx: CliContext, user: User, password: string, keepSessions: boolean): Promise<number> {
  const result = await admin.setPassword(ctx, cliSource(ctx.now()), user, password, keepSessions);
  if (!result.ok) throw CliError.fromFields(result.errors);
  return result.ended;
}
