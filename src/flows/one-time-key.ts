import type { Deps } from './context.js';
import { hashSecret, randomKey } from '../security/secrets.js';
import { insertOneTimeKey } from '../store/one-time-keys.js';
import type { Conn } from '../store/db.js';

type NewKey = Omit<Parameters<typeof insertOneTimeKey>[1], 'keyHash'>;

/** Issues a single-use key for a mailed link: only its hash is stored, the key itself goes in the mail. */
export async function issueOneTimeKey(deps: Deps, input: NewKey, conn: Conn = deps.db): Promise<string> {
  const key = randomKey(24);
  await insertOneTimeKey(conn, { ...input, keyHash: hashSecret(key) });
  return key;
}
