import type { Deps } from './context.js';
import type { Session } from '../domain/session.js';
import { constantTimeEqual, hashSecret, normalizeCode } from '../security/secrets.js';
import { refundFlowAttempt, takeFlowAttempt } from '../store/sessions.js';
import { dropFlow } from './session-ops.js';

/** What a code is checked against: the code-holding part of any pending flow. */
export interface CodeHolder {
  /** SHA-256 of the code; null when the flow holds none (never matches). */
  codeHash: string | null;
  /** Milliseconds. */
  expiresAt: number;
  /** Null for a stand-in flow answering for an unknown recipient. */
  userId: number | null;
}

/** `gone`: expired or out of attempts, the flow is dropped (409); `wrong`: one attempt spent (400). */
export type CodeVerdict = 'ok' | 'wrong' | 'gone';

/**
 * Checks a code against a pending flow: the one check every code flow uses.
 * An attempt is taken atomically before the comparison, so a burst of
 * parallel guesses spends at most `max`, and the wrong guess that spends the
 * last attempt drops the flow. A correct code gives its attempt back, except
 * for a `lookup` (a GET of the code), which counts as an attempt as in the
 * reference.
 */
export async function checkFlowCode(
  deps: Deps,
  session: Session,
  flow: CodeHolder,
  code: string,
  max: number,
  now: number,
  opts: { lookup?: boolean } = {},
): Promise<CodeVerdict> {
  if (flow.expiresAt <= now) {
    await dropFlow(deps, session);
    return 'gone';
  }
  // No attempt left: the wrong guess that took the last one dropped the flow
  // already. Dropping here too would let a burst of correct codes, whose
  // attempts are only lent, kill the one that should win.
  const attempt = await takeFlowAttempt(deps.db, session.id, max);
  if (attempt === null) return 'gone';
  // A flow for an unknown recipient holds the hash of a random secret: the
  // comparison runs the same and never matches.
  const matches = flow.codeHash !== null && constantTimeEqual(hashSecret(normalizeCode(code)), flow.codeHash) && flow.userId !== null;
  if (matches) {
    if (!opts.lookup) await refundFlowAttempt(deps.db, session.id);
    return 'ok';
  }
  if (attempt >= max) await dropFlow(deps, session);
  return 'wrong';
}
