import type { Conn, Tx } from './db.js';
import type { User } from '../domain/user.js';
import { findUserById } from './users.js';

/** An account's phone number, in E.164. */
export interface PhoneNumber {
  userId: number;
  phone: string;
  verified: boolean;
}

function toPhoneNumber(row: { user_id: number; phone: string; verified: number }): PhoneNumber {
  return { userId: row.user_id, phone: row.phone, verified: row.verified === 1 };
}

export async function findPhoneOfUser(conn: Conn, userId: number): Promise<PhoneNumber | null> {
  const row = await conn.selectFrom('phone_numbers').select(['user_id', 'phone', 'verified']).where('user_id', '=', userId).executeTakeFirst();
  return row ? toPhoneNumber(row) : null;
}

/** The record holding this number, whoever owns it. */
export async function findPhoneNumber(conn: Conn, phone: string): Promise<PhoneNumber | null> {
  const row = await conn.selectFrom('phone_numbers').select(['user_id', 'phone', 'verified']).where('phone', '=', phone).executeTakeFirst();
  return row ? toPhoneNumber(row) : null;
}

/** The user owning a number, verified or not. */
export async function findUserByPhone(conn: Conn, phone: string): Promise<User | null> {
  const owner = await findPhoneNumber(conn, phone);
  return owner ? findUserById(conn, owner.userId) : null;
}

/** Gives a new account its number. Throws a unique violation when the number was taken meanwhile. */
export async function insertPhone(tx: Tx, input: { userId: number; phone: string; verified: boolean; now: number }): Promise<void> {
  await tx
    .insertInto('phone_numbers')
    .values({ user_id: input.userId, phone: input.phone, verified: input.verified ? 1 : 0, created_at: input.now })
    .execute();
}

/**
 * Marks the user's number verified if it is still `phone`: 'newly' when this
 * call verified it, 'already' when it was, null when the user's number is
 * another or none.
 */
export async function markPhoneVerified(conn: Conn, userId: number, phone: string): Promise<'newly' | 'already' | null> {
  const result = await conn
    .updateTable('phone_numbers')
    .set({ verified: 1 })
    .where('user_id', '=', userId)
    .where('phone', '=', phone)
    .where('verified', '=', 0)
    .executeTakeFirst();
  if (result.numUpdatedRows > 0n) return 'newly';
  const number = await findPhoneOfUser(conn, userId);
  return number?.phone === phone ? 'already' : null;
}

/**
 * Makes `phone` the user's verified number, replacing any previous one.
 * Throws a unique violation when another account holds the number.
 */
export async function setVerifiedPhone(tx: Tx, userId: number, phone: string, now: number): Promise<void> {
  const updated = await tx
    .updateTable('phone_numbers')
    .set({ phone, verified: 1, created_at: now })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) await insertPhone(tx, { userId, phone, verified: true, now });
}

/** Removes the user's number; false when they had none. */
export async function deletePhoneOfUser(conn: Conn, userId: number): Promise<boolean> {
  const result = await conn.deleteFrom('phone_numbers').where('user_id', '=', userId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Makes `phone` the user's number, verified or not, replacing any previous
 * one. Throws a unique violation when another account holds the number.
 */
export async function replacePhone(tx: Tx, userId: number, phone: string, verified: boolean, now: number): Promise<void> {
  const updated = await tx
    .updateTable('phone_numbers')
    .set({ phone, verified: verified ? 1 : 0, created_at: now })
    .where('user_id', '=', userId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) await insertPhone(tx, { userId, phone, verified, now });
}

/** A unique constraint failed (PostgreSQL 23505, SQLite SQLITE_CONSTRAINT_UNIQUE): someone else won a race. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE';
}
