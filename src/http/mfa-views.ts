import type { FastifyReply } from 'fastify';
import type { Config } from '../config/config.js';
import type { AuthenticatorInfo } from '../domain/authenticator.js';

// Wire shapes of the MFA answers, as the reference's clients read them.

/** An authenticator object: times in (fractional) Unix seconds, `last_used_at` null until used. */
export function authenticatorView(a: AuthenticatorInfo) {
  return {
    type: a.type,
    created_at: a.createdAt / 1000,
    last_used_at: a.lastUsedAt === null ? null : a.lastUsedAt / 1000,
    ...(a.recoveryCodes
      ? {
          total_code_count: a.recoveryCodes.total,
          unused_code_count: a.recoveryCodes.unused,
          ...(a.recoveryCodes.codes ? { unused_codes: a.recoveryCodes.codes } : {}),
        }
      : {}),
    // is_passwordless is left out when the client did not report credProps, as in the reference.
    ...(a.webauthn
      ? { id: a.webauthn.id, name: a.webauthn.name, ...(a.webauthn.passwordless === null ? {} : { is_passwordless: a.webauthn.passwordless }) }
      : {}),
  };
}

export function setTrustCookie(reply: FastifyReply, config: Config, value: string): void {
  const cookie = config.mfa.trust.cookie;
  reply.setCookie(cookie.name, value, {
    maxAge: cookie.age,
    path: cookie.path,
    ...(cookie.domain ? { domain: cookie.domain } : {}),
    secure: cookie.secure,
    httpOnly: cookie.httpOnly,
    sameSite: cookie.sameSite,
  });
}
