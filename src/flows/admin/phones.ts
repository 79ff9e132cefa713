import type { User } from '../../domain/user.js';
import type { FieldError } from '../outcome.js';
import { parsePhone } from '../phone/phone-number.js';
import { deletePhoneOfUser, findPhoneNumber, findPhoneOfUser, isUniqueViolation, replacePhone, type PhoneNumber } from '../../store/phones.js';
import { recordEvent, type AuditSource } from '../../audit/recorder.js';
import type { AdminDeps } from './webhooks.js';

// An administrator's changes to a user's phone number (one per account, in
// E.164, unique across accounts), with the API's events.

export function phoneOf(deps: AdminDeps, userId: number): Promise<PhoneNumber | null> {
  return findPhoneOfUser(deps.db, userId);
}

export type PhoneResult = { ok: true; phone: PhoneNumber; changed: boolean } | { ok: false; error: FieldError };

/**
 * Gives the user this number, verified or not, in place of any other:
 * `phone.changed` (and `phone.verified` when it is marked verified).
 */
export async function setPhone(deps: AdminDeps, source: AuditSource, user: User, input: { phone: string; verified: boolean }): Promise<PhoneResult> {
  const parsed = parsePhone(input.phone);
  if ('error' in parsed) return { ok: false, error: parsed.error };
  const { phone } = parsed;
  const holder = await findPhoneNumber(deps.db, phone);
  if (holder && holder.userId !== user.id) return { ok: false, error: { code: 'phone_taken', param: 'phone' } };
  if (holder && holder.verified === input.verified) return { ok: true, phone: holder, changed: false };
  try {
    await deps.db.transaction().execute(async (tx) => {
      await replacePhone(tx, user.id, phone, input.verified, source.now);
      if (!holder) await recordEvent(deps, tx, source, 'phone.changed', { userId: user.id, detail: { phone } });
      if (input.verified) await recordEvent(deps, tx, source, 'phone.verified', { userId: user.id, detail: { phone } });
    });
  } catch (error) {
    // Taken by another account between the check and the write.
    if (isUniqueViolation(error)) return { ok: false, error: { code: 'phone_taken', param: 'phone' } };
    throw error;
  }
  return { ok: true, phone: { userId: user.id, phone, verified: input.verified }, changed: true };
}

/** Removes the user's number (`phone.removed`); false when they had none. */
export async function removePhone(deps: AdminDeps, source: AuditSource, user: User): Promise<PhoneNumber | null> {
  return deps.db.transaction().execute(async (tx) => {
    const current = await findPhoneOfUser(tx, user.id);
    if (!current) return null;
    await deletePhoneOfUser(tx, user.id);
    await recordEvent(deps, tx, source, 'phone.removed', { userId: user.id, detail: { phone: current.phone } });
    return current;
  });
}
