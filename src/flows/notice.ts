import type { Deps } from './context.js';

/**
 * Sends a notice the answer does not depend on (an "account exists" mail, a
 * password-changed warning): a failure is logged, never answered, so the
 * request's outcome and its timing stay the same either way.
 */
export async function sendNotice(deps: Deps, sending: Promise<void>, what: string): Promise<void> {
  try {
    await sending;
  } catch (error) {
    deps.log.error({ err: error }, `${what} notice failed`);
  }
}
