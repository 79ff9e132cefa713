import type { Deps } from './context.js';
import type { LoginByCodeFlow, PasswordResetByCodeFlow, Session } from '../domain/session.js';
import { constantTimeEqual, hashSecret, normalizeCode } from '../security/secrets.js';
import { refundFlowAttempt, takeFlowAttempt } from '../store/sessions.js';
import { dropFlow } from './session-ops.js';

export type CodeFlow = LoginByCodeFlow | PasswordResetByCodeFlow;

/** `gone`: expired or out of attempts, the flow is dropped (409); `wrong`: one attempt spent (400). */
export type CodeVerdict = 'ok' | 'wrong' | 'gone';

/**
 * Checks a code against a pending flow. An attempt is taken atomically before
 * the comparison, so a burst of parallel guesses spends at most `max`; a
 * correct code gives its attempt back, so looking a code up before using it
 * costs nothing. The wrong guess that spends the last attempt drops the flow.
 */
export async function checkFlowCode(deps: Deps, session: Session, flow: CodeFlow, code: string, max: number, now: number): Promise<CodeVerdict> {
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
  const matches = constantTimeEqual(hashSecret(normalizeCode(code)), flow.codeHash) && flow.userId !== null;
  if (matches) {
    await refundFlowAttempt(deps.db, session.id);
    return 'ok';
  }
  if (attempt >= max) await dropFlow(deps, session);
  return 'wrong';
}
