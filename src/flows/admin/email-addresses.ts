import type { User } from '../../domain/user.js';
import type { FieldError } from '../outcome.js';
import { emailError, normalizeEmail } from '../validate.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import {
  deleteEmailAddress,
  findEmailAddress,
  insertEmailAddress,
  listUserEmailAddresses,
  markEmailVerified,
  setPrimaryEmailAddress,
  type EmailAddress,
} from '../../store/email-addresses.js';
import type { AdminDeps } from './webhooks.js';

// An administrator's changes to a user's addresses, for the admin CLI and
// any other admin front end: the same rules and the same audit events as
// the API's, each change in one transaction with its events.

export type AddressResult<T = EmailAddress> = { ok: true; value: T } | { ok: false; error: FieldError | { code: 'not_found'; param: 'email' } };

const notFound = { ok: false, error: { code: 'not_found', param: 'email' } } as const;
const refused = (error: FieldError) => ({ ok: false, error }) as const;

/**
 * Adds an address to a user, verified or not. It becomes the primary one when
 * asked to or when the user has none yet. Events as the API writes them: the
 * address added, then verified, then made primary in place of another.
 */
export async function addAddress(deps: AdminDeps, source: AuditSource, user: User, input: { email: string; verified: boolean; primary: boolean }): Promise<AddressResult> {
  const email = normalizeEmail(input.email);
  const problem = emailError(email);
  if (problem) return refused(problem);
  return deps.db.transaction().execute(async (tx): Promise<AddressResult> => {
    const holder = await findEmailAddress(tx, email);
    if (holder) return refused({ code: holder.userId === user.id ? 'duplicate_email' : 'email_taken', param: 'email' });
    const first = (await listUserEmailAddresses(tx, user.id)).length === 0;
    const primary = input.primary || first;
    const added = await insertEmailAddress(tx, { userId: user.id, email, primary: false, verified: input.verified, now: source.now });
    if (!added) return refused({ code: 'email_taken', param: 'email' });
    if (primary) await setPrimaryEmailAddress(tx, user.id, added.id);
    const event = { userId: user.id, detail: { email } };
    await recordEvent(deps, tx, source, 'email.added', event);
    if (input.verified) await recordEvent(deps, tx, source, 'email.verified', event);
    if (primary && !first) await recordEvent(deps, tx, source, 'email.primary_changed', event);
    return { ok: true, value: { ...added, primary } };
  });
}

/** A user's addresses, the primary one first. */
export function addressesOf(deps: AdminDeps, userId: number): Promise<EmailAddress[]> {
  return listUserEmailAddresses(deps.db, userId);
}

/** The address if `userId` owns it: an adapter that names the user checks the address is theirs. */
export async function addressOfUser(deps: AdminDeps, userId: number, email: string): Promise<EmailAddress | null> {
  const address = await findEmailAddress(deps.db, normalizeEmail(email));
  return address && address.userId === userId ? address : null;
}

/** Marks an address verified; `changed` is false when it already was. */
export async function verifyAddress(deps: AdminDeps, source: AuditSource, email: string): Promise<AddressResult<{ address: EmailAddress; changed: boolean }>> {
  const address = await findEmailAddress(deps.db, normalizeEmail(email));
  if (!address) return notFound;
  const changed = await deps.db.transaction().execute(async (tx) => {
    const marked = await markEmailVerified(tx, address.id);
    if (marked) await recordEvent(deps, tx, source, 'email.verified', { userId: address.userId, detail: { email: address.email } });
    return marked;
  });
  return { ok: true, value: { address: { ...address, verified: true }, changed } };
}

/** Makes an address its user's primary one (the one the API shows as the user's email). */
export async function makePrimary(deps: AdminDeps, source: AuditSource, email: string): Promise<AddressResult> {
  const address = await findEmailAddress(deps.db, normalizeEmail(email));
  if (!address) return notFound;
  if (address.primary) return { ok: true, value: address };
  await deps.db.transaction().execute(async (tx) => {
    await setPrimaryEmailAddress(tx, address.userId, address.id);
    await recordEvent(deps, tx, source, 'email.primary_changed', { userId: address.userId, detail: { email: address.email } });
  });
  return { ok: true, value: { ...address, primary: true } };
}

/**
 * Removes an address. A primary address goes only when it is the user's last
 * one: otherwise another must be made primary first, as in the API.
 */
export async function removeAddress(deps: AdminDeps, source: AuditSource, email: string): Promise<AddressResult> {
  const address = await findEmailAddress(deps.db, normalizeEmail(email));
  if (!address) return notFound;
  if (address.primary && (await listUserEmailAddresses(deps.db, address.userId)).length > 1) {
    return refused({ code: 'cannot_remove_primary_email', param: 'email' });
  }
  await deps.db.transaction().execute(async (tx) => {
    if (await deleteEmailAddress(tx, address.id)) await recordEvent(deps, tx, source, 'email.removed', { userId: address.userId, detail: { email: address.email } });
  });
  return { ok: true, value: address };
}
