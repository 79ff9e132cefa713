import { Type } from 'typebox';

// What the admin routes share: ids in paths, page sizes and opaque cursors,
// and the errors every route may answer.

export const Id = Type.String({ pattern: '^[0-9]{1,15}$', description: 'A numeric id.' });
export const UserParams = Type.Object({ id: Id });
// 0 or 5000 is refused like -1, not quietly made 1 or 1000.
export const Limit = Type.Optional(Type.String({ pattern: '^(1000|[1-9][0-9]{0,2})$', description: 'Page size, 1 to 1000 (default 50).' }));

export function limitOf(raw: string | undefined): number {
  return raw === undefined ? 50 : Number(raw);
}

/**
 * Cursors are opaque to clients: the position after which the next page
 * starts (a user id), encoded so that clients pass it back as they got it.
 */
export function encodeCursor(position: number): string {
  return Buffer.from(`v1:${position}`, 'utf8').toString('base64url');
}

/** The position a cursor names, or null when it is not one of ours. */
export function decodeCursor(cursor: string): number | null {
  const match = /^v1:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  return match ? Number(match[1]) : null;
}

/** The meta of a page: the cursor of the next one, null when this one is the last. */
export function pageMeta(page: ReadonlyArray<{ id: number }>, limit: number): { next_cursor: string | null } {
  return { next_cursor: page.length === limit ? encodeCursor(page.at(-1)!.id) : null };
}

/** Shared description text: the errors every admin route may answer. */
export const COMMON_ERRORS =
  '401 `invalid_api_key`; 403 `insufficient_scope` for a change with a read key; 400 `invalid` (with `param`) for malformed input and for each body field or query parameter the operation does not take; 429 `too_many_requests` after repeated bad keys, whatever key is sent until the window ends.';
