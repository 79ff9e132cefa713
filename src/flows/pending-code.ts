import type { Deps } from './context.js';
import { hashSecret, randomCode, randomKey } from '../security/secrets.js';

// The step every "we sent you a code" flow shares (login by code, phone
// verification, password reset by SMS): a fresh code goes out, and the
// pending flow keeps only its hash and when it stops working. Checking a
// code that comes back is code-attempt.ts.

/** What a pending flow stores of a code it sent. */
export interface IssuedCode {
  /** SHA-256 of the code. */
  codeHash: string;
  /** Milliseconds. */
  expiresAt: number;
}

export interface CodeDelivery {
  /** False for a recipient with no account: `decoy` runs instead of `send`, and no code completes the flow. */
  known: boolean;
  send(code: string): Promise<void>;
  /** What a recipient with no account gets (a notice), if anything. */
  decoy?(): Promise<void>;
  /** How long the code works. */
  ttlSeconds: number;
  /** Named in the log when delivery fails. */
  what: string;
}

/**
 * Sends a new code and answers what the flow stores, or null when it could
 * not be delivered (logged; nothing is to change). A decoy's hash is of a
 * secret nobody holds, so both kinds of flow look alike and only a real one
 * can be completed.
 */
export async function sendCode(deps: Deps, now: number, delivery: CodeDelivery): Promise<IssuedCode | null> {
  const code = randomCode();
  try {
    if (delivery.known) await delivery.send(code);
    else await delivery.decoy?.();
  } catch (error) {
    deps.log.error({ err: error }, `${delivery.what} failed`);
    return null;
  }
  return { codeHash: hashSecret(delivery.known ? code : randomKey()), expiresAt: now + delivery.ttlSeconds * 1000 };
}
