import type pg from 'pg';

// Bulk-loaded session i is `scale-session-<i>`: the bench presents that key
// as X-Session-Token. How the key is stored follows the schema in place
// (hex text before migration 008, 32 raw bytes after), so one bench measures
// both.

export const sessionKeyOf = (i: number) => `scale-session-${i}`;

/** SQL that computes the stored form of the key the expression `key` yields. */
export async function keyDigestSql(c: pg.Client): Promise<(key: string) => string> {
  const { rows } = await c.query(`SELECT data_type FROM information_schema.columns WHERE table_name = 'sessions' AND column_name = 'key_hash'`);
  const raw = rows[0]?.data_type === 'bytea';
  return (key) => (raw ? `sha256(convert_to(${key}, 'UTF8'))` : `encode(sha256(convert_to(${key}, 'UTF8')), 'hex')`);
}
