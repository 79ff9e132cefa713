import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/**
 * Outside production a missing SECRET_KEY is generated once and kept under
 * the data directory, so sessions and links survive restarts in development.
 */
export function developmentSecret(dataDir: string): string {
  const path = join(dataDir, 'secret_key');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(path, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  return secret;
}
