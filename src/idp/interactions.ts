import type { Config } from '../config/config.js';
import type { LiveSession } from '../tokens/strategy.js';

// What the provider's login prompt gets from our own login: the user of the
// browser's session here (its cookie), when that login is complete (no
// pending stage such as the second factor) and fresh enough for what the
// client asked (prompt=login: a login after the request began; max_age).
// Otherwise the browser goes to the SPA's login page and comes back.

export interface LoginPromptDetails {
  /** The provider's reasons: no_session, login_prompt, max_age, headless_max_age, headless_session, ... */
  reasons: string[];
  /** Seconds, with the milliseconds: when the authorization request started. */
  requestedAt: number;
  maxAge?: number;
}

export type LoginDecision =
  | { kind: 'login'; result: { accountId: string; ts: number; amr?: string[]; remember: boolean } }
  | { kind: 'login_page' };

/** Seconds: the latest moment the session proved who its user is (a login or reauthentication). */
export function authTime(found: LiveSession): number {
  const times = found.session.methods.map((m) => m.at);
  return times.length ? Math.max(...times) : found.session.createdAt / 1000;
}

export function decideLogin(found: LiveSession | null, details: LoginPromptDetails, nowMs: number): LoginDecision {
  if (!found?.user || !found.user.isActive || found.session.flow !== null) return { kind: 'login_page' };
  const at = authTime(found);
  if (details.reasons.includes('login_prompt') && at <= details.requestedAt) return { kind: 'login_page' };
  if (details.maxAge !== undefined && nowMs / 1000 - at > details.maxAge) return { kind: 'login_page' };
  const amr = amrOf(found.session.methods as never);
  return { kind: 'login', result: { accountId: String(found.user.id), ts: Math.floor(at), ...(amr.length ? { amr } : {}), remember: true } };
}

/** The SPA's login page with the way back (HEADLESS_FRONTEND_URLS.account_login). */
export function loginPageUrl(config: Config, next: string): string {
  const url = new URL(config.frontendUrls.account_login);
  url.searchParams.set('next', next);
  return url.toString();
}

export function consentPageUrl(config: Config, uid: string): string | null {
  const template = config.frontendUrls.idp_oidc_consent;
  if (!template) return null;
  const url = new URL(template);
  url.searchParams.set('uid', uid);
  return url.toString();
}

/** RFC 8176 values for our login methods. */
export function amrOf(methods: Array<{ method: string; type?: string; passwordless?: true }>): string[] {
  const amr = new Set<string>();
  for (const m of methods) {
    if (m.method === 'password') amr.add('pwd');
    else if (m.method === 'code' || m.method === 'password_reset') amr.add('otp');
    else if (m.method === 'socialaccount') amr.add('fed');
    else if (m.method === 'mfa') {
      if (m.passwordless) amr.add('hwk').add('user');
      else if (m.type === 'webauthn') amr.add('hwk');
      else amr.add('otp');
    }
  }
  const factors = methods.filter((m) => m.method !== 'mfa' || !m.passwordless).some((m) => m.method === 'mfa');
  if (factors) amr.add('mfa');
  return [...amr];
}
