// Bulk-loaded session i is `scale-session-<i>`: the bench presents that key
// as X-Session-Token. PostgreSQL stores its SHA-256 as 32 raw bytes
// (sessionKeyDigest), computed here in SQL.

export const sessionKeyOf = (i: number) => `scale-session-${i}`;

/** SQL for the stored digest of the key the expression `key` yields. */
export const keyDigestSql = (key: string) => `sha256(convert_to(${key}, 'UTF8'))`;
