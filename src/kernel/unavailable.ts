// A dependency that did not answer: the database or Redis lost, refusing,
// frozen or overloaded. Not a bug: the request is answered 503 with
// Retry-After, and the next one may well succeed. Failures are told apart
// by where they came from and by their class and code, never by message
// text (a driver's message may quote a connection string).

export type Dependency = 'database' | 'redis';

export class DependencyUnavailable extends Error {
  override name = 'DependencyUnavailable';
  /** What failed, for logs and /readyz: `timeout`, a system error code (ECONNREFUSED), an SQLSTATE, ... */
  readonly code: string;

  constructor(
    readonly dependency: Dependency,
    failure: string,
    options?: { cause?: unknown },
  ) {
    super(`${dependency} unavailable: ${failure}`, options);
    this.code = failure;
  }
}

/** An error's code (its own or its cause's) as a short, credential-free description; `fallback` when it has none. */
export function failureOf(error: unknown, fallback = 'connection lost'): string {
  for (let e = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && code !== '') return code;
  }
  return fallback;
}
