import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import type { FieldError } from '../../flows/outcome.js';
import { emailError, normalizeEmail, passwordErrors, usernameError } from '../../flows/validate.js';
import { hashPassword } from '../../security/passwords.js';
import { findEmailAddress } from '../../store/email-addresses.js';
import { createUser, usernameExists } from '../../store/users.js';
import { cliSource, recordEvent } from '../../audit/recorder.js';

export interface NewAccount {
  email?: string;
  username?: string;
  /** Null: no password (the user sets one through a reset, or never logs in with one). */
  password: string | null;
  /** The address counts as verified from the start. */
  verified: boolean;
}

/**
 * Creates a user under the rules signup applies (address form, username rules,
 * password policy), answering the new user's id.
 */
export async function createAccount(ctx: CliContext, input: NewAccount): Promise<number> {
  const email = input.email === undefined ? undefined : normalizeEmail(input.email);
  const username = input.username?.trim();
  if (!email && !username) throw CliError.of('required', 'give an email address, a username or both', 'email');
  const problems: FieldError[] = [];
  const emailProblem = email ? emailError(email) : null;
  if (emailProblem) problems.push(emailProblem);
  const usernameProblem = username ? usernameError(ctx.config, username) : null;
  if (usernameProblem) problems.push(usernameProblem);
  if (input.password !== null) problems.push(...passwordErrors(ctx.config, input.password, 'password', [username, email]));
  if (problems.length > 0) throw CliError.fromFields(problems);

  const passwordHash = input.password === null ? null : await hashPassword(input.password);
  return ctx.db.transaction().execute(async (tx) => {
    const taken: FieldError[] = [];
    if (username && (await usernameExists(tx, username))) taken.push({ code: 'username_taken', param: 'username' });
    if (email && (await findEmailAddress(tx, email))) taken.push({ code: 'email_taken', param: 'email' });
    if (taken.length > 0) throw CliError.fromFields(taken);
    const made = await createUser(tx, { username: username ?? null, email: email ?? null, emailVerified: input.verified, passwordHash, now: ctx.now() });
    // Taken between the check and the insert, by a signup that had not committed.
    if (!made) throw CliError.fromFields([{ code: email ? 'email_taken' : 'username_taken', param: email ? 'email' : 'username' }]);
    await recordEvent(ctx, tx, cliSource(ctx.now()), 'signup', { userId: made.userId, detail: { ...(email ? { email } : {}) } });
    return made.userId;
  });
}
