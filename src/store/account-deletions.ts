import type { Conn } from './db.js';

export async function recordAccountDeletion(conn: Conn, input: { userId: number; now: number; ip: string; userAgent: string }): Promise<void> {
  await conn
    .insertInto('account_deletions')
    .values({ user_id: input.userId, deleted_at: input.now, ip: input.ip, user_agent: input.userAgent })
    .execute();
}
