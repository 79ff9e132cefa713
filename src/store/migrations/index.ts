import type { Migration } from 'kysely';
import * as m001 from './001_initial.js';

// Listed in code rather than read from a folder, so migrations work the same
// under tsx, a bundler or compiled output. Append; never edit a shipped one.
export const migrations: Record<string, Migration> = {
  '001_initial': m001,
};
