import type { Outcome } from '../flows/outcome.js';
import type { LoginOutcome, Metrics } from '../observability/metrics.js';

// Logins and token refreshes are counted from the outcomes their routes
// render, here, rather than in each flow. What a route counts is declared
// with the route (`counts` of endpoint.ts), which puts it in the route's config.

/** A login (by which method: password, code, social, mfa, webauthn, passkey) or a token refresh. */
export type Counted = { kind: 'login'; method: string } | { kind: 'refresh' };

declare module 'fastify' {
  interface FastifyContextConfig {
    counted?: Counted;
  }
  interface FastifyRequest {
    /** What the flow answered, set by render.ts's send(). */
    outcome: Outcome | null;
  }
}

const FAILURES = new Set(['invalid_credentials', 'email_password_mismatch', 'username_password_mismatch', 'phone_password_mismatch', 'incorrect_code']);

function loginOutcome(outcome: Outcome): LoginOutcome {
  switch (outcome.kind) {
    case 'auth':
      return outcome.user && outcome.session?.userId === outcome.user.id ? 'success' : 'pending';
    case 'invalid': {
      const code = outcome.errors[0]?.code;
      if (code && FAILURES.has(code)) return 'failure';
      if (code === 'too_many_login_attempts') return 'locked';
      if (code === 'account_inactive') return 'inactive';
      return 'invalid';
    }
    // A provider callback: the login it led to, else a failure sent back to the frontend.
    case 'redirect': {
      const auth = outcome.auth;
      if (auth?.user && auth.session?.userId === auth.user.id) return 'success';
      return auth?.session?.flow ? 'pending' : 'failure';
    }
    case 'rate_limited':
      return 'rate_limited';
    case 'unavailable':
      return 'unavailable';
    default:
      return 'invalid';
  }
}

/** Counts the outcome a counted route rendered (called once the response is done). */
export function countOutcome(metrics: Metrics, counted: Counted, outcome: Outcome | null): void {
  if (!outcome) return;
  if (counted.kind === 'login') metrics.login(counted.method, loginOutcome(outcome));
  else metrics.tokenRefresh(outcome.kind === 'tokens' || outcome.kind === 'auth' ? 'success' : 'failure');
}
