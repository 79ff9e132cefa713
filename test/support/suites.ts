import { describe, it } from 'node:test';

/**
 * describe(name, body), or, when `skip` gives a reason, a single skipped test
 * in its place: node:test leaves skipped suites out of the summary's skipped
 * count, and a run that skipped a suite should say so in its last lines.
 */
export function describeUnlessSkipped(name: string, skip: string | undefined, body: () => void): void {
  if (skip) it(name, { skip });
  else describe(name, body);
}
