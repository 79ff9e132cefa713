import { createRequire } from 'node:module';

// A CommonJS package loaded the first time it is needed rather than at
// start-up, so that a server that never needs it (a SQLite server and pg, a
// server without phone numbers and their numbering plans) does not hold its
// code and tables in its heap: a megabyte or two each, kept for the life of
// the process and carried into every garbage collection. The loading is
// synchronous, as a static import would have been, so callers stay as they were.

const require = createRequire(import.meta.url);

/** A getter for `specifier`'s exports, required on the first call. */
export function onFirstUse<T>(specifier: string): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= require(specifier) as T);
}
