import { USER_ORDERS, type UserOrder, type UserPosition } from '../../../flows/admin/users.js';

// The users list's cursors: a place in one order (its sort key and id) and
// which way the page it fetches lies. Opaque to clients, who pass back one of
// `meta.next_cursor` or `meta.prev_cursor`; a cursor of another order is
// refused rather than read as a place in this one. The cursors of the plain
// id order written before other orders existed (`v1:<id>`) still work.

export function encodeUserCursor(order: UserOrder, position: UserPosition): string {
  return Buffer.from(`u1:${order}:${position.backward ? 'b' : 'a'}:${position.key}:${position.id}`, 'utf8').toString('base64url');
}

/** The place a cursor names in `order`, or null when it is not one of ours for that order. */
export function decodeUserCursor(order: UserOrder, cursor: string): UserPosition | null {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const legacy = /^v1:(\d{1,15})$/.exec(text);
  if (legacy) return order === 'id' ? { key: Number(legacy[1]), id: Number(legacy[1]), backward: false } : null;
  const match = /^u1:(-?[a-z_]+):([ab]):(\d{1,15}):(\d{1,15})$/.exec(text);
  if (!match || match[1] !== order || !(USER_ORDERS as readonly string[]).includes(match[1])) return null;
  return { key: Number(match[3]), id: Number(match[4]), backward: match[2] === 'b' };
}
