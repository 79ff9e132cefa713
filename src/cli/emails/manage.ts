import type { CliContext } from '../context.js';
import { CliError } from '../errors.js';
import type { User } from '../../domain/user.js';
import { emailError, normalizeEmail } from '../../flows/validate.js';
import {
  deleteEmailAddress,
  findEmailAddress,
  insertEmailAddress,
  listUserEmailAddresses,
  markEmailVerified,
  setPrimaryEmailAddress,
  type EmailAddress,
} from '../../store/email-addresses.js';
import { cliSource, recordEvent } from '../../flows/audit.js';

/**
 * Adds an address to a user, verified or not. It becomes the primary one when
 * asked to or when the user has none yet. Events as the API writes them: the
 * address added, then verified, then made primary in place of another.
 */
export async function addAddress(ctx: CliContext, user: User, input: { email: string; verified: boolean; primary: boolean }): Promise<EmailAddress> {
  const email = normalizeEmail(input.email);
  const problem = emailError(email);
  if (problem) throw CliError.fromFields([problem]);
  return ctx.db.transaction().execute(async (tx) => {
    const holder = await findEmailAddress(tx, email);
    if (holder) throw CliError.fromFields([{ code: holder.userId === user.id ? 'duplicate_email' : 'email_taken', param: 'email' }]);
    const first = (await listUserEmailAddresses(tx, user.id)).length === 0;
    const primary = input.primary || first;
    const added = await insertEmailAddress(tx, { userId: user.id, email, primary: false, verified: input.verified, now: ctx.now() });
    if (!added) throw CliError.fromFields([{ code: 'email_taken', param: 'email' }]);
    if (primary) await setPrimaryEmailAddress(tx, user.id, added.id);
    const source = cliSource(ctx.now());
    const event = { userId: user.id, detail: { email } };
    await recordEvent(ctx, tx, source, 'email.added', event);
    if (input.verified) await recordEvent(ctx, tx, source, 'email.verified', event);
    if (primary && !first) await recordEvent(ctx, tx, source, 'email.primary_changed', event);
    return { ...added, primary };
  });
}

/** Marks an address verified; `changed` is false when it already was. */
export async function verifyAddress(ctx: CliContext, email: string): Promise<{ address: EmailAddress; changed: boolean }> {
  const address = await existingAddress(ctx, email);
  const changed = await ctx.db.transaction().execute(async (tx) => {
    const marked = await markEmailVerified(tx, address.id);
    if (marked) await recordEvent(ctx, tx, cliSource(ctx.now()), 'email.verified', { userId: address.userId, detail: { email: address.email } });
    return marked;
  });
  return { address: { ...address, verified: true }, changed };
}

/** Makes an address its user's primary one (the one the API shows as the user's email). */
export async function makePrimary(ctx: CliContext, email: string): Promise<EmailAddress> {
  const address = await existingAddress(ctx, email);
  if (address.primary) return address;
  await ctx.db.transaction().execute(async (tx) => {
    await setPrimaryEmailAddress(tx, address.userId, address.id);
    await recordEvent(ctx, tx, cliSource(ctx.now()), 'email.primary_changed', { userId: address.userId, detail: { email: address.email } });
  });
  return { ...address, primary: true };
}

/**
 * Removes an address. A primary address goes only when it is the user's last
 * one: otherwise another must be made primary first, as in the API.
 */
export async function removeAddress(ctx: CliContext, email: string): Promise<EmailAddress> {
  const address = await existingAddress(ctx, email);
  if (address.primary && (await listUserEmailAddresses(ctx.db, address.userId)).length > 1) {
    throw CliError.fromFields([{ code: 'cannot_remove_primary_email', param: 'email' }]);
  }
  await ctx.db.transaction().execute(async (tx) => {
    if (await deleteEmailAddress(tx, address.id)) await recordEvent(ctx, tx, cliSource(ctx.now()), 'email.removed', { userId: address.userId, detail: { email: address.email } });
  });
  return address;
}

async function existingAddress(ctx: CliContext, email: string): Promise<EmailAddress> {
  const address = await findEmailAddress(ctx.db, normalizeEmail(email));
  if (!address) throw CliError.of('not_found', `no user has the address ${email}`, 'email');
  return address;
}

export function addressJson(address: EmailAddress) {
  return { user_id: address.userId, email: address.email, verified: address.verified, primary: address.primary };
}
