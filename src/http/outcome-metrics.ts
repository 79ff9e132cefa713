import type { RouteOptions } from 'fastify';
import type { Outcome } from '../flows/outcome.js';
import type { LoginOutcome, Metrics } from '../observability/metrics.js';

// Logins and token refreshes are counted from the outcomes their routes
// render, here, rather than in each flow. A route's kind is looked up once,
// when it is registered, under its path within the client prefix.

export type Counted = { kind: 'login'; method: string } | { kind: 'refresh' };

/**
 * The routes that log in (by which method) or refresh tokens; new login
 * routes add a row. The provider callbacks, outside the client prefixes,
 * carry `SOCIAL_CALLBACK` in their own route config.
 */
const COUNTED: Record<string, Counted> = {
  'POST /auth/login': { kind: 'login', method: 'password' },
  'POST /auth/code/confirm': { kind: 'login', method: 'code' },
  'POST /auth/provider/token': { kind: 'login', method: 'social' },
  // The second step of a login: a TOTP or recovery code, or a security key.
  'POST /auth/2fa/authenticate': { kind: 'login', method: 'mfa' },
  'POST /auth/webauthn/authenticate': { kind: 'login', method: 'webauthn' },
  'POST /auth/webauthn/login': { kind: 'login', method: 'passkey' },
  'POST /tokens/refresh': { kind: 'refresh' },
  // The app client's POST /auth/session is the refresh in authentication-state form.
  'POST /auth/session': { kind: 'refresh' },
};

declare module 'fastify' {
  interface FastifyContextConfig {
    counted?: Counted;
  }
  interface FastifyRequest {
    /** What the flow answered, set by render.ts's send(). */
    outcome: Outcome | null;
  }
}

export const SOCIAL_CALLBACK: Counted = { kind: 'login', method: 'social' };

/** onRoute: tags the routes in COUNTED. */
export function tagCountedRoute(route: RouteOptions & { prefix?: string }): void {
  const path = route.url.slice(route.prefix?.length ?? 0);
  for (const method of [route.method].flat()) {
    const counted = COUNTED[`${method} ${path}`];
    if (counted) route.config = { ...route.config, counted };
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
