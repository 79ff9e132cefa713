import type { CliContext } from '../context.js';
import type { User } from '../../domain/user.js';
import { cliSource } from '../../audit/recorder.js';
import * as admin from '../../flows/admin/users.js';

/** `users deactivate` / `activate` over flows/admin/users.ts: answers how many live sessions it ended. */
export function setActive(ctx: CliContext, user: User, active: boolean): Promise<number> {
  return admin.setActive(ctx, cliSource(ctx.now()), user, active);
}
