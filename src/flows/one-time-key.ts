import type { Deps } from './context.js';
import { hashSecret, randomKey } from '../security/secrets.js';
import { insertOneTimeKey } from '../store/one-time-keys.js';

type NewKey = Omit<Parameters<typeof insertOneTimeKey>[1], 'keyHash'>;

/** Issues a single-use key for a mailed link: only its hash is stored, the key itself goes in the mail. */
export async function issueOneTimeKey(deps: Deps, input: NewKey): Promise<string> {
  const key = randomKey(24);
  await insertOneTimeKey(deps.db, { ...input, keyHash: hashSecret(key) });
  return key;
}
